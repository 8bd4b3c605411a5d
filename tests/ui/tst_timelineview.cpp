// The timeline tab: what an incident reviewer sees and can filter, read from a real SQLite file
// with the store's events table, and the CSV export started from it.
#include "emptystate.h"
#include "eventdetaildialog.h"
#include "eventsdb.h"
#include "timeline/timelinemodel.h"
#include "timelineview.h"
#include "util/clock.h"

#include <QCheckBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::ui;

namespace {

using Severity = IncidentEvent::Severity;

struct TimelineFixture
{
    TimelineFixture()
    {
        path = dir.filePath(QStringLiteral("switchyard.db"));
        db = createEventsDb(path);
    }
    ~TimelineFixture()
    {
        view.reset();
        model.reset();
        closeDb(db);
    }

    void add(qint64 agoMs, Severity severity, const QString& node, const QString& message,
             const QString& txId = {}, const QString& kind = QStringLiteral("node-state"))
    {
        StoredEvent event;
        event.kind = kind;
        event.timeMs = clock.utcNow().toMSecsSinceEpoch() - agoMs;
        event.severity = int(severity);
        event.network = QStringLiteral("mainnet");
        event.node = node;
        event.txId = txId;
        event.message = message;
        insertEvent(db, event);
    }

    // Repeats of one node are one row when `groupRepeats` (as the app opens the tab); the
    // tests of other things see one row per event.
    TimelineView& open(int pageSize = TimelineModel::defaultPageSize, bool groupRepeats = false)
    {
        model = std::make_unique<TimelineModel>(db, &clock);
        model->setPageSize(pageSize);
        model->setAgeRefreshInterval(0);
        view = std::make_unique<TimelineView>(model.get(), path);
        view->setGroupRepeats(groupRepeats);
        view->resize(1600, 900);
        return *view;
    }

    QStringList column(int column) const
    {
        QStringList values;
        for (int row = 0; row < model->rowCount(); ++row)
            values.append(model->index(row, column).data().toString());
        return values;
    }

    bool showsEmptyState() const
    {
        return view->findChild<QStackedWidget*>()->currentWidget() ==
               view->findChild<EmptyState*>();
    }

    QTemporaryDir dir;
    QString path;
    QSqlDatabase db;
    ManualClock clock;
    std::unique_ptr<TimelineModel> model;
    std::unique_ptr<TimelineView> view;
};

const QString alpha = QStringLiteral("alpha");
const QString beta = QStringLiteral("beta");

} // namespace

class TestTimelineView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsEventsNewestFirstWithSeverityWordAndBothTimes()
    {
        TimelineFixture fixture;
        fixture.add(60'000, Severity::Warning, alpha, QStringLiteral("lagging by 40 slots"));
        fixture.add(5'000, Severity::Critical, beta, QStringLiteral("unhealthy: refused"));
        TimelineView& view = fixture.open();
        QCOMPARE(fixture.column(TimelineModel::Node), (QStringList{beta, alpha}));
        QCOMPARE(fixture.column(TimelineModel::Severity),
                 (QStringList{QStringLiteral("Critical"), QStringLiteral("Warning")}));
        QVERIFY(!fixture.showsEmptyState());

        // The time cell carries the absolute UTC time and how long ago it was.
        QTableView* table = view.table();
        QStyleOptionViewItem option;
        option.initFrom(table);
        const QModelIndex time = fixture.model->index(0, TimelineModel::Time);
        const QSize hint =
            table->itemDelegateForColumn(TimelineModel::Time)->sizeHint(option, time);
        QVERIFY(hint.width() > table->fontMetrics().horizontalAdvance(time.data().toString()));
        QVERIFY(time.data(TimelineModel::AbsoluteTimeRole).toString().endsWith(u'Z'));
        QCOMPARE(time.data().toString(), QStringLiteral("5 s ago"));
    }

    void severityButtonsFilter()
    {
        TimelineFixture fixture;
        fixture.add(3'000, Severity::Info, alpha, QStringLiteral("probe ok"));
        fixture.add(2'000, Severity::Warning, alpha, QStringLiteral("lagging"));
        fixture.add(1'000, Severity::Critical, alpha, QStringLiteral("unhealthy"));
        TimelineView& view = fixture.open();
        QCOMPARE(fixture.model->rowCount(), 3);
        view.findChild<QToolButton*>(QStringLiteral("severity-info"))->click();
        QCOMPARE(fixture.column(TimelineModel::Message),
                 (QStringList{QStringLiteral("unhealthy"), QStringLiteral("lagging")}));
        view.findChild<QToolButton*>(QStringLiteral("severity-warning"))->click();
        view.findChild<QToolButton*>(QStringLiteral("severity-critical"))->click();
        // Nothing chosen is said as such, never shown as "everything".
        QVERIFY(fixture.showsEmptyState());
        QCOMPARE(view.findChild<EmptyState*>()->headline(), QStringLiteral("No severity chosen"));
    }

    // Around an incident the reviewer wants failovers and node states together: the Kind
    // filter takes several kinds, and says which on its button.
    void kindFilterTakesSeveralKinds()
    {
        TimelineFixture fixture;
        fixture.add(3'000, Severity::Warning, alpha, QStringLiteral("moved off"), {},
                    QStringLiteral("failover"));
        fixture.add(2'000, Severity::Warning, alpha, QStringLiteral("past warnLag"), {},
                    QStringLiteral("lag-threshold"));
        fixture.add(1'000, Severity::Critical, alpha, QStringLiteral("Healthy → Unhealthy"));
        TimelineView& view = fixture.open();
        auto* button = view.findChild<QToolButton*>(QStringLiteral("timelineKind"));
        QVERIFY(button && button->menu());
        QCOMPARE(button->text(), QStringLiteral("All kinds"));
        const auto tick = [&](const QString& key) {
            button->menu()->findChild<QAction*>(QStringLiteral("kind-") + key)->trigger();
        };
        tick(QStringLiteral("node-state"));
        QCOMPARE(fixture.column(TimelineModel::Message),
                 QStringList{QStringLiteral("Healthy → Unhealthy")});
        tick(QStringLiteral("failover"));
        QCOMPARE(fixture.column(TimelineModel::Message),
                 (QStringList{QStringLiteral("Healthy → Unhealthy"), QStringLiteral("moved off")}));
        QCOMPARE(view.filter().kinds.size(), 2);
        QCOMPARE(button->text(), QStringLiteral("Node state, Failover"));
        tick(QStringLiteral("node-state")); // unticked again
        QCOMPARE(fixture.column(TimelineModel::Message), QStringList{QStringLiteral("moved off")});
        button->menu()->findChild<QAction*>(QStringLiteral("kind-all"))->trigger();
        QCOMPARE(fixture.model->rowCount(), 3);
        QCOMPARE(button->text(), QStringLiteral("All kinds"));
    }

    void textFilterSettlesThenApplies()
    {
        TimelineFixture fixture;
        fixture.add(2'000, Severity::Warning, alpha, QStringLiteral("lagging by 40 slots"));
        fixture.add(1'000, Severity::Critical, beta, QStringLiteral("unhealthy: refused"));
        TimelineView& view = fixture.open();
        view.findChild<QLineEdit*>(QStringLiteral("timelineText"))
            ->setText(QStringLiteral("REFUSED"));
        QTRY_COMPARE(fixture.column(TimelineModel::Node), QStringList{beta});
        QCOMPARE(view.filter().text, QStringLiteral("REFUSED"));
    }

    void transactionChipShowsOneTransactionAndClears()
    {
        TimelineFixture fixture;
        const QString tx = QStringLiteral("0x") + QString(64, u'a');
        fixture.add(3'000, Severity::Info, alpha, QStringLiteral("submitted"), tx);
        fixture.add(2'000, Severity::Warning, beta, QStringLiteral("lagging"));
        fixture.add(1'000, Severity::Info, alpha, QStringLiteral("confirmed"), tx);
        TimelineView& view = fixture.open();
        view.showTransaction(tx);
        QCOMPARE(fixture.column(TimelineModel::Message),
                 (QStringList{QStringLiteral("confirmed"), QStringLiteral("submitted")}));
        auto* chip = view.findChild<QPushButton*>(QStringLiteral("timelineTransaction"));
        QVERIFY(!chip->isHidden());
        QVERIFY(chip->text().contains(QStringLiteral("0xaaaa")));
        chip->click();
        QVERIFY(chip->isHidden());
        QCOMPARE(fixture.model->rowCount(), 3);
    }

    // "Show in timeline" shows the transaction's events whatever was filtered before: a text or
    // another network left over would hide every one of them behind a chip that looks right.
    void transactionChipReplacesWhatWouldHideIt()
    {
        TimelineFixture fixture;
        const QString tx = QStringLiteral("0x") + QString(64, u'b');
        fixture.add(2'000, Severity::Info, alpha, QStringLiteral("submitted"), tx);
        fixture.add(1'000, Severity::Critical, alpha, QStringLiteral("expired"), tx);
        TimelineView& view = fixture.open();
        view.setText(QStringLiteral("lagging"));
        view.setSeverityShown(Severity::Critical, false);
        view.setNetwork(QStringLiteral("other"));
        view.showTransaction(tx);
        QCOMPARE(fixture.model->rowCount(), 2);
        QVERIFY(!fixture.showsEmptyState());
        QCOMPARE(view.findChild<QLineEdit*>(QStringLiteral("timelineText"))->text(), QString());
        auto* chip = view.findChild<QPushButton*>(QStringLiteral("timelineTransaction"));
        QVERIFY(!chip->isHidden());
        chip->click();
        QVERIFY(chip->isHidden());
    }

    void emptyStoreAndNoMatchAreSaidApart()
    {
        TimelineFixture fixture;
        TimelineView& view = fixture.open();
        view.setRange(TimelineView::AllTime);
        QVERIFY(fixture.showsEmptyState());
        QCOMPARE(view.findChild<EmptyState*>()->headline(), QStringLiteral("No incidents yet"));
        view.setText(QStringLiteral("nothing like this"));
        QCOMPARE(view.findChild<EmptyState*>()->headline(), QStringLiteral("No events match"));
    }

    void loadsAPageAndSaysOlderOnesFollow()
    {
        TimelineFixture fixture;
        for (int i = 0; i < 120; ++i)
            fixture.add(1000 * (i + 1), Severity::Info, alpha, QStringLiteral("probe %1").arg(i));
        TimelineView& view = fixture.open(50);
        QCOMPARE(fixture.model->rowCount(), 50);
        const auto* status = view.findChild<QLabel*>(QStringLiteral("timelineStatus"));
        QVERIFY(status->text().contains(QStringLiteral("older ones load as you scroll")));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.table()->scrollToBottom();
        QTRY_VERIFY(fixture.model->rowCount() > 50);
    }

    // Reading a row while new events arrive: with Follow newest off (as it turns once a row is
    // clicked), the row under the pointer stays where it is; on, the newest row is in view.
    void newRowsDoNotMoveTheRowUnderThePointer()
    {
        TimelineFixture fixture;
        for (int i = 0; i < 60; ++i)
            fixture.add(60'000 + 1000 * i, Severity::Info, alpha,
                        QStringLiteral("older %1").arg(i));
        TimelineView& view = fixture.open();
        view.resize(1400, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.followsNewest());
        QTableView* table = view.table();
        const int rowHeight = table->rowHeight(0);
        const QPoint pointer(table->columnViewportPosition(TimelineModel::Message) + 20,
                             rowHeight * 3 + rowHeight / 2);
        const auto messageAt = [&] {
            return table->indexAt(pointer)
                .siblingAtColumn(TimelineModel::Message)
                .data()
                .toString();
        };
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, pointer);
        QVERIFY(!view.followsNewest()); // a row chosen: the operator is reading
        const QString read = messageAt();
        QCOMPARE(read, QStringLiteral("older 3"));

        for (int i = 0; i < 5; ++i)
            fixture.add(1000 - 100 * i, Severity::Warning, beta, QStringLiteral("new %1").arg(i));
        fixture.model->refreshHead();
        QCOMPARE(fixture.model->rowCount(), 65);
        QCOMPARE(messageAt(), read);
        QCOMPARE(table->currentIndex().siblingAtColumn(TimelineModel::Message).data().toString(),
                 read);

        // Scrolled further down, the same holds.
        table->verticalScrollBar()->setValue(rowHeight * 10);
        const QString further = messageAt();
        fixture.add(50, Severity::Warning, beta, QStringLiteral("newer still"));
        fixture.model->refreshHead();
        QCOMPARE(messageAt(), further);

        // Following again: the newest event is the top row, and stays so as more arrive.
        view.setFollowNewest(true);
        QCOMPARE(table->rowAt(0), 0);
        fixture.add(10, Severity::Critical, beta, QStringLiteral("newest"));
        fixture.model->refreshHead();
        QCOMPARE(table->rowAt(0), 0);
        QCOMPARE(fixture.model->index(0, TimelineModel::Message).data().toString(),
                 QStringLiteral("newest"));
        // Scrolling away by hand stops following.
        table->verticalScrollBar()->setValue(rowHeight * 5);
        QVERIFY(!view.followsNewest());
    }

    // The message gets the room; the time column is as wide as what it shows.
    void messageColumnTakesTheRoom()
    {
        TimelineFixture fixture;
        fixture.clock.advance(12 * 3600'000); // midday: the event is today's
        fixture.add(5'000, Severity::Critical, beta, QStringLiteral("unhealthy: refused"));
        TimelineView& view = fixture.open();
        view.resize(1900, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QHeaderView* header = view.table()->horizontalHeader();
        QTRY_VERIFY2(header->sectionSize(TimelineModel::Message) >=
                         2 * header->sectionSize(TimelineModel::Time),
                     qPrintable(QStringLiteral("message %1 px, time %2 px")
                                    .arg(header->sectionSize(TimelineModel::Message))
                                    .arg(header->sectionSize(TimelineModel::Time))));
    }

    // A double-click opens every field of the event, whole.
    void doubleClickShowsTheWholeEvent()
    {
        TimelineFixture fixture;
        const QString txId = QStringLiteral("0x") + QString(64, u'a');
        fixture.add(5'000, Severity::Critical, beta, QStringLiteral("a long message ") + "x", txId);
        TimelineView& view = fixture.open();
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTableView* table = view.table();
        const QRect cell = table->visualRect(table->model()->index(0, TimelineModel::Message));
        // As a mouse does it: a click, then the second press that makes it a double-click.
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        auto* detail = view.findChild<EventDetailDialog*>();
        QVERIFY(detail);
        QVERIFY(detail->isVisible());
        QCOMPARE(detail->field(QStringLiteral("Tx id")), txId);
        QCOMPARE(detail->field(QStringLiteral("Severity")), QStringLiteral("Critical"));
        QCOMPARE(detail->field(QStringLiteral("Node")), beta);
        QVERIFY(detail->field(QStringLiteral("Time")).contains(u'Z'));
        detail->close();
    }

    // A flapping node is one row with a count, as the tab opens; the export still writes
    // every event, and unticking the box shows them one by one.
    void flapsAreOneRowAndTheExportKeepsEveryEvent()
    {
        TimelineFixture fixture;
        for (int i = 0; i < 12; ++i)
            fixture.add(60'000 - 5'000 * i, i % 2 ? Severity::Info : Severity::Critical, alpha,
                        i % 2 ? QStringLiteral("→ Healthy") : QStringLiteral("→ Unhealthy"));
        fixture.add(1'000, Severity::Warning, beta, QStringLiteral("lagging"));
        TimelineView& grouped = fixture.open();
        TimelineView fresh(fixture.model.get(), fixture.path);
        QVERIFY(fresh.groupRepeatsBox()->isChecked()); // how the tab opens
        grouped.setGroupRepeats(true);
        const QAbstractItemModel* rows = grouped.table()->model();
        QCOMPARE(rows->rowCount(), 2);
        QCOMPARE(rows->index(0, TimelineModel::Message).data().toString(),
                 QStringLiteral("lagging"));
        QCOMPARE(rows->index(1, TimelineModel::Message).data().toString(),
                 QStringLiteral("12× in 55 s · → Healthy"));
        QCOMPARE(rows->index(1, TimelineModel::Severity).data().toString(),
                 QStringLiteral("Critical"));
        QVERIFY2(grouped.findChild<QLabel*>(QStringLiteral("timelineStatus"))
                     ->text()
                     .contains(QStringLiteral("13 events in 2 rows")),
                 qPrintable(grouped.findChild<QLabel*>(QStringLiteral("timelineStatus"))->text()));

        const QString out = fixture.dir.filePath(QStringLiteral("flaps.csv"));
        QSignalSpy finished(&grouped, &TimelineView::exportFinished);
        grouped.exportTo(out);
        QVERIFY(finished.wait(10'000));
        QCOMPARE(finished.first().first().value<CsvExportResult>().rows, 13);
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().count("\r\n"), 14); // the header and every event

        grouped.groupRepeatsBox()->click();
        QCOMPARE(rows->rowCount(), 13);
    }

    void exportWritesTheFilteredEvents()
    {
        TimelineFixture fixture;
        fixture.add(2'000, Severity::Warning, alpha, QStringLiteral("=HYPERLINK(\"x\")"));
        fixture.add(1'000, Severity::Critical, beta, QStringLiteral("unhealthy, refused"));
        TimelineView& view = fixture.open();
        view.findChild<QToolButton*>(QStringLiteral("severity-warning"))->click();
        const QString out = fixture.dir.filePath(QStringLiteral("out.csv"));
        QSignalSpy finished(&view, &TimelineView::exportFinished);
        view.exportTo(out);
        QVERIFY(finished.wait(10'000));
        QVERIFY(finished.first().first().value<CsvExportResult>().ok());
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QCOMPARE(lines.size(), 3); // header, one event, the final empty split after CRLF
        QVERIFY(lines[1].contains("\"unhealthy, refused\""));
        QVERIFY(!lines[1].contains("HYPERLINK"));
    }
};

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
