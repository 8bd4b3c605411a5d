// A poll round's rows as the tracker hands them to the store (saveTransactionsAndEvents), on
// SQLite and on a real PostgreSQL server, where they go a hundred rows a statement.
#include "store/database.h"
#include "store/records.h"
#include "store/writetransaction.h"
#include "teststores.h"

#include <QTest>

using namespace switchyard;
using namespace switchyard::store;

namespace {

StoredTransaction transaction(int n)
{
    StoredTransaction row;
    row.id = QStringLiteral("sig-%1").arg(n, 4, 10, QLatin1Char('0'));
    row.network = QStringLiteral("net-%1").arg(n % 3);
    row.family = n % 2 ? ChainFamily::Evm : ChainFamily::Solana;
    if (n % 5 == 0)
        row.intentId = QStringLiteral("intent-%1").arg(n);
    // Every byte value, a NUL among them; a watch-only record has none.
    if (n % 7 != 0)
        row.wire = QByteArray(1, char(0)) + QByteArray::number(n) + QByteArray(1, char(255));
    if (n % 2 == 0) {
        row.recentBlockhash = QStringLiteral("hash-%1").arg(n);
        row.lastValidBlockHeight = 1'000 + n;
    } else {
        row.sender = QStringLiteral("0xsender%1").arg(n % 4);
        row.nonce = n;
    }
    row.state = n % 4 ? QStringLiteral("submitted") : QStringLiteral("confirmed");
    row.stateSinceMs = 1'795'986'303'120 + n;
    row.createdMs = 1'795'986'000'000 + n;
    row.lastNode = QStringLiteral("node-%1").arg(n % 6);
    if (n % 3 == 0)
        row.lastHeight = 300'000'000 + n;
    if (n % 4 == 0) {
        row.confirmedMs = row.stateSinceMs;
        row.confirmedHeight = 300'000'000 + n;
        row.confirmedBy = row.lastNode;
    }
    row.error = n % 11 == 0 ? QStringLiteral("it's \"failed\"; 'quoted'") : QString();
    return row;
}

// Every stored column in one line, to compare a row read back with the one written.
QString columns(const StoredTransaction& row)
{
    const auto number = [](std::optional<qint64> value) {
        return value ? QString::number(*value) : QStringLiteral("null");
    };
    return QStringList{row.id,
                       row.network,
                       familyName(row.family),
                       row.intentId,
                       row.wire ? QString::fromLatin1(row.wire->toHex()) : QStringLiteral("null"),
                       row.recentBlockhash,
                       number(row.lastValidBlockHeight),
                       row.sender,
                       number(row.nonce),
                       row.state,
                       QString::number(row.stateSinceMs),
                       QString::number(row.createdMs),
                       row.lastNode,
                       number(row.lastHeight),
                       number(row.firstSentMs),
                       number(row.confirmedMs),
                       number(row.confirmedHeight),
                       number(row.finalizedMs),
                       row.error,
                       row.confirmedBy,
                       row.finalizedBy}
        .join(QLatin1Char('|'));
}

IncidentEvent stateEvent(const StoredTransaction& row, int n)
{
    IncidentEvent event;
    event.time = QDateTime::fromMSecsSinceEpoch(row.stateSinceMs + n, Qt::UTC);
    event.severity = n % 2 ? IncidentEvent::Severity::Warning : IncidentEvent::Severity::Info;
    event.kind = IncidentEvent::Kind::TransactionState;
    event.network = row.network;
    event.node = row.lastNode;
    event.method = QStringLiteral("getSignatureStatuses");
    event.txId = row.id;
    if (n % 2)
        event.height = 300'000'000 + n;
    event.message = QStringLiteral("%1 per %2 (%3)").arg(row.state, row.lastNode).arg(n);
    return event;
}

} // namespace

class TestRecords : public QObject
{
    Q_OBJECT
    testing::TestStores m_stores;

private Q_SLOTS:
    void initTestCase_data() { testing::TestStores::addEngineRows(); }

    // 251 rows (three statements on PostgreSQL: 100, 100, 51), the first row's id given again
    // last with another state, and an event for each: every column reads back as written, the
    // repeated id as its last row.
    void aRoundsRowsLandWhole()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);
        const OpenResult opened = Database::open(location);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QSqlDatabase db = opened.database->connection();

        QList<StoredTransaction> rows;
        QList<IncidentEvent> events;
        for (int n = 0; n < 250; ++n) {
            rows << transaction(n);
            events << stateEvent(rows.constLast(), n);
        }
        StoredTransaction again = rows.constFirst();
        again.state = QStringLiteral("finalized");
        again.finalizedMs = again.stateSinceMs + 1;
        again.finalizedBy = QStringLiteral("node-5");
        rows << again;
        events << stateEvent(again, 250);

        WriteTransaction write(db);
        QVERIFY(!write.begin().isError());
        const WriteError error = saveTransactionsAndEvents(db, rows, events);
        QVERIFY2(!error.isError(), qPrintable(error.text));
        QVERIFY(!write.commit().isError());

        QStringList ids;
        for (int n = 0; n < 250; ++n)
            ids << rows[n].id;
        const auto read = readTransactions(db, ids);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.value.size(), 250);
        for (int n = 1; n < 250; ++n)
            QCOMPARE(columns(read.value.value(rows[n].id)), columns(rows[n]));
        QCOMPARE(columns(read.value.value(again.id)), columns(again));

        const auto firstEvents = eventsForTransaction(db, again.id);
        QVERIFY2(firstEvents.ok(), qPrintable(firstEvents.error));
        QCOMPARE(firstEvents.value.size(), 2);
        QCOMPARE(firstEvents.value.constLast().message, events.constLast().message);
        QCOMPARE(firstEvents.value.constLast().height, events.constLast().height);
        const auto lastEvents = eventsForTransaction(db, rows[249].id);
        QVERIFY2(lastEvents.ok(), qPrintable(lastEvents.error));
        QCOMPARE(lastEvents.value.size(), 1);
        QCOMPARE(lastEvents.value.constFirst().message, events[249].message);
        QCOMPARE(lastEvents.value.constFirst().severity, events[249].severity);
    }

    // A row without an id is refused, saying so (the write around it is then rolled back).
    void aRowWithoutAnIdIsRefused()
    {
        SWITCHYARD_FRESH_STORE(m_stores, location);
        const OpenResult opened = Database::open(location);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QSqlDatabase db = opened.database->connection();
        StoredTransaction nameless = transaction(1);
        nameless.id.clear();
        WriteTransaction write(db);
        QVERIFY(!write.begin().isError());
        const WriteError error =
            saveTransactionsAndEvents(db, {transaction(2), nameless}, {stateEvent(nameless, 1)});
        QCOMPARE(error.text, QStringLiteral("cannot store a transaction without an id"));
    }
};

QTEST_GUILESS_MAIN(TestRecords)
#include "tst_records.moc"
