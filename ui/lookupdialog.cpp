#include "lookupdialog.h"

#include "appearance.h"
#include "models/lookupanswermodel.h"
#include "pool/poolmanager.h"
#include "themeicondelegate.h"

#include <QApplication>
#include <QClipboard>
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
    , m_localEvents(new QListWidget(this))
    , m_showInTimeline(new QPushButton(tr("Show in timeline"), this))
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
    m_localEvents->setObjectName(QStringLiteral("lookupEvents"));
    m_localEvents->setFont(withPointSize(font(), headerPointSize));
    m_localEvents->setMaximumHeight(m_localEvents->fontMetrics().height() * 7);
    m_showInTimeline->setObjectName(QStringLiteral("lookupShowInTimeline"));
    connect(m_showInTimeline, &QPushButton::clicked, this,
            [this] { Q_EMIT showInTimelineRequested(m_query.id); });

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
    layout->addWidget(m_localHeadline);
    layout->addWidget(m_localEvents);
    layout->addWidget(m_showInTimeline, 0, Qt::AlignLeft);
    layout->addSpacing(12);
    layout->addWidget(sectionTitle(tr("Every status node, live"), this));
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    resize(1300, 800);
}

LookupDialog::~LookupDialog() = default;

void LookupDialog::lookUp(const LookupQuery& query)
{
    if (m_lookup)
        m_lookup->deleteLater(); // its answers stop here
    m_query = query;
    m_kind->setText(query.family == ChainFamily::Solana ? tr("Solana signature")
                                                        : tr("EVM transaction hash"));
    m_id->setText(query.id);
    rebuildExplorerButtons();
    m_answers->clear();

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

void LookupDialog::setLocalRecord(const QString& headline, const QStringList& events)
{
    m_localHeadline->setText(headline);
    m_localEvents->clear();
    m_localEvents->addItems(events);
    m_localEvents->setVisible(!events.isEmpty());
    m_showInTimeline->setVisible(!events.isEmpty());
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
