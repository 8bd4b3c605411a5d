#include "lookupdialog.h"

#include "appearance.h"
#include "chain/codec/transactionsummary.h"
#include "chain/familyrules.h"
#include "models/lookupanswermodel.h"
#include "pool/poolmanager.h"
#include "themeicondelegate.h"

#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QDesktopServices>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>
#include <qcorotask.h>

namespace switchyard::ui {

namespace {

QLabel* sectionTitle(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setFont(withPointSize(label->font(), headerPointSize, true));
    return label;
}

} // namespace

LookupDialog::LookupDialog(PoolManager* pools, QWidget* parent)
    : QDialog(parent)
    , m_pools(pools)
    , m_answers(new LookupAnswerModel(this))
    , m_kind(new QLabel(this))
    , m_id(new QLabel(this))
    , m_copy(new QPushButton(themeIcon(QStringLiteral("copy")), tr("Copy id"), this))
    , m_explorers(new QHBoxLayout)
    , m_localHeadline(new QLabel(this))
    , m_track(new QPushButton(tr("Track this id…"), this))
    , m_decoded(new QLabel(this))
    , m_localEvents(new QListWidget(this))
    , m_showInTimeline(new QPushButton(tr("Show in timeline"), this))
    , m_refresh(new QPushButton(themeIcon(QStringLiteral("probe")), tr("Refresh"), this))
    , m_askedAt(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_table(new QTableView(this))
{
    setWindowTitle(tr("Transaction lookup"));
    setObjectName(QStringLiteral("lookupDialog"));
    const QFont body = withPointSize(font(), tablePointSize);

    m_kind->setFont(withPointSize(font(), headerPointSize));
    m_id->setObjectName(QStringLiteral("lookupId"));
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSizeF(tablePointSize);
    m_id->setFont(mono);
    m_id->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_id->setWordWrap(true);
    m_copy->setObjectName(QStringLiteral("lookupCopy"));
    m_copy->setFont(withPointSize(font(), headerPointSize));
    connect(m_copy, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(m_query.id); });

    auto* idRow = new QHBoxLayout;
    idRow->addWidget(m_id, 1);
    idRow->addWidget(m_copy);
    idRow->addLayout(m_explorers);

    m_localHeadline->setObjectName(QStringLiteral("lookupLocal"));
    m_localHeadline->setFont(body);
    m_localHeadline->setWordWrap(true);
    m_track->setObjectName(QStringLiteral("lookupTrack"));
    m_track->setFont(withPointSize(font(), headerPointSize));
    m_track->setToolTip(tr("Open the Track dialog with this id, to watch it on the Pending board"));
    m_track->hide();
    connect(m_track, &QPushButton::clicked, this, [this] { Q_EMIT trackRequested(m_query.id); });
    m_decoded->setObjectName(QStringLiteral("lookupDecoded"));
    m_decoded->setFont(mono);
    m_decoded->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_decoded->setWordWrap(true);
    m_decoded->hide();
    m_localEvents->setObjectName(QStringLiteral("lookupEvents"));
    m_localEvents->setFont(withPointSize(font(), headerPointSize));
    m_localEvents->setMaximumHeight(m_localEvents->fontMetrics().height() * 7);
    m_showInTimeline->setObjectName(QStringLiteral("lookupShowInTimeline"));
    connect(m_showInTimeline, &QPushButton::clicked, this,
            [this] { Q_EMIT showInTimelineRequested(m_query.id); });

    m_refresh->setObjectName(QStringLiteral("lookupRefresh"));
    m_refresh->setFont(withPointSize(font(), headerPointSize));
    m_refresh->setToolTip(tr("Ask every status node again"));
    connect(m_refresh, &QPushButton::clicked, this, [this] {
        lookUp(m_query);
        Q_EMIT refreshed(m_query.id);
    });
    m_askedAt->setObjectName(QStringLiteral("lookupAskedAt"));
    m_askedAt->setFont(withPointSize(font(), headerPointSize));
    m_summary->setObjectName(QStringLiteral("lookupSummary"));
    m_summary->setFont(withPointSize(font(), summaryPointSize, true));
    m_table->setObjectName(QStringLiteral("lookupAnswers"));
    m_table->setModel(m_answers);
    makeReadable(m_table);
    m_table->setItemDelegateForColumn(LookupAnswerModel::Answer,
                                      new ThemeIconDelegate(LookupAnswerModel::IconRole, m_table));
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(LookupAnswerModel::Answer,
                                                      QHeaderView::Stretch);
    // Sized to what arrived: each answer can widen a column, and none may be cut off.
    connect(m_answers, &QAbstractItemModel::rowsInserted, this, [this] {
        m_table->resizeColumnsToContents();
        updateSummary();
    });
    connect(m_answers, &QAbstractItemModel::modelReset, this, &LookupDialog::updateSummary);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_kind);
    layout->addLayout(idRow);
    layout->addSpacing(12);
    layout->addWidget(sectionTitle(tr("On this machine"), this));
    auto* localRow = new QHBoxLayout;
    localRow->addWidget(m_localHeadline, 1);
    localRow->addWidget(m_track, 0, Qt::AlignTop);
    layout->addLayout(localRow);
    layout->addWidget(m_decoded);
    layout->addWidget(m_localEvents);
    layout->addWidget(m_showInTimeline, 0, Qt::AlignLeft);
    layout->addSpacing(12);
    auto* liveRow = new QHBoxLayout;
    liveRow->addWidget(sectionTitle(tr("Every status node, live"), this));
    liveRow->addStretch(1);
    liveRow->addWidget(m_askedAt);
    liveRow->addWidget(m_refresh);
    layout->addLayout(liveRow);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    fitToScreen(this, QSize(1300, 800));
}

LookupDialog::~LookupDialog() = default;

void LookupDialog::lookUp(const LookupQuery& query)
{
    if (m_lookup)
        m_lookup->deleteLater(); // its answers stop here
    m_query = query;
    const chain::FamilyRules& rules = chain::familyRules(query.family);
    m_kind->setText(tr("%1 %2").arg(rules.displayName(), rules.idName()));
    m_id->setText(query.id);
    rebuildExplorerButtons();
    m_answers->clear();
    // Never the last id's record under this one while the store is read.
    LocalRecord reading;
    reading.headline = tr("Reading what this machine's store holds about it…");
    setLocalRecord(reading);
    m_askedAt->setText(
        tr("Asked at %1")
            .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("HH:mm:ss 'UTC'"))));

    QList<std::shared_ptr<NetworkPool>> pools;
    for (const std::shared_ptr<NetworkPool>& pool : m_pools->pools())
        pools.append(pool);
    auto* lookup = new LiveLookup(this);
    m_lookup = lookup;
    m_running = true;
    connect(lookup, &LiveLookup::answered, m_answers, &LookupAnswerModel::add);
    connect(lookup, &LiveLookup::finished, this, [this, lookup] {
        if (m_lookup != lookup)
            return;
        m_running = false;
        updateSummary();
        lookup->deleteLater();
        Q_EMIT lookupFinished();
    });
    lookup->run(pools, query).then([](const QList<LookupAnswer>&) {});
    updateSummary();
}

void LookupDialog::setLocalRecord(const LocalRecord& local)
{
    m_localHeadline->setText(local.headline);
    m_track->setVisible(!local.tracked && local.canTrack);
    const chain::TransactionSummary decoded =
        local.wire ? chain::summarizeTransaction(m_query.family, *local.wire)
                   : chain::TransactionSummary{};
    m_decoded->setText(local.wire ? decoded.lines() : QString());
    m_decoded->setVisible(local.wire.has_value());
    m_localEvents->clear();
    m_localEvents->addItems(local.events);
    m_localEvents->setVisible(!local.events.isEmpty());
    m_showInTimeline->setVisible(!local.events.isEmpty());
}

void LookupDialog::rebuildExplorerButtons()
{
    qDeleteAll(m_explorerButtons);
    m_explorerButtons.clear();
    for (const NetworkConfig& network : m_pools->config().networks) {
        if (network.family != m_query.family || network.explorer.isEmpty())
            continue;
        QString link = network.explorer;
        link.replace(QLatin1String("{id}"), m_query.id);
        auto* button = new QPushButton(themeIcon(QStringLiteral("open-external")),
                                       tr("Open in %1 explorer").arg(network.name), this);
        button->setObjectName(QStringLiteral("explorer-") + network.name);
        button->setFont(withPointSize(font(), headerPointSize));
        button->setToolTip(link);
        connect(button, &QPushButton::clicked, this,
                [link] { QDesktopServices::openUrl(QUrl(link)); });
        m_explorers->addWidget(button);
        m_explorerButtons.append(button);
    }
}

void LookupDialog::updateSummary()
{
    QString text = m_answers->summary();
    if (m_running && m_answers->rowCount() > 0)
        text += tr(" · still asking…");
    m_summary->setText(text);
}

} // namespace switchyard::ui
