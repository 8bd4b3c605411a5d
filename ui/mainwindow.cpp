#include "mainwindow.h"

#include "appearance.h"
#include "attention/attentioncontroller.h"
#include "chain/familyrules.h"
#include "chain/transactionid.h"
#include "config/configloader.h"
#include "editor/networkseditordialog.h"
#include "emptystate.h"
#include "failoversview.h"
#include "fallbackindicator.h"
#include "importdialog.h"
#include "lagview.h"
#include "lookup/searchclassifier.h"
#include "lookupdialog.h"
#include "models/boardcolumnproxy.h"
#include "models/displaytext.h"
#include "models/failovertablemodel.h"
#include "models/fallbackstatus.h"
#include "models/lagrecorder.h"
#include "models/modelroles.h"
#include "models/networkoverviewmodel.h"
#include "models/pooltablemodel.h"
#include "models/unseencriticalevents.h"
#include "overviewbar.h"
#include "pendingboardview.h"
#include "pendingpage.h"
#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "poolview.h"
#include "recording/collectorfollower.h"
#include "recording/storesession.h"
#include "shortcuts.h"
#include "store/database.h"
#include "store/readthread.h"
#include "store/storewriter.h"
#include "timeline/eventtext.h"
#include "timelineview.h"
#include "tracking/transactiontracker.h"
#include "tracking/txstate.h"
#include "util/clock.h"
#include "util/settings.h"

#include <QAction>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QCoreApplication>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace switchyard::ui {

namespace {

// Long enough to be read after looking up from the keyboard.
constexpr int searchMessageMs = 15'000;

} // namespace

MainWindow::MainWindow(PoolManager* pools, ConfigSource source, Settings* settings, QWidget* parent)
    : QMainWindow(parent)
    , m_pools(pools)
    , m_attention(new AttentionController(this, pools, settings))
    , m_source(std::move(source))
    , m_settings(settings)
    , m_poolModel(new PoolTableModel(pools, this))
    , m_failoverModel(new FailoverTableModel(pools, this))
    , m_lagRecorder(new LagRecorder(pools, LagHistory(), this))
    , m_overviewModel(new NetworkOverviewModel(pools, this))
    , m_unseenCritical(new UnseenCriticalEvents(pools, this))
{
    setWindowIcon(QIcon(QStringLiteral(":/switchyard/switchyard.svg")));
    if (const qint64 window = m_settings->failoverWindowMs(); window > 0)
        m_failoverModel->setWindowMs(window);
    buildToolbar();
    buildViews();
    installShortcuts(this);

    m_sourceLabel = new QLabel(this);
    m_probingLabel = new QLabel(this);
    m_readOnlyLabel = new QLabel(this);
    m_readOnlyLabel->setObjectName(QStringLiteral("readOnlyLabel"));
    m_readOnlyLabel->setFont(withPointSize(font(), headerPointSize, true));
    m_readOnlyLabel->hide();
    statusBar()->addWidget(m_readOnlyLabel);
    statusBar()->addWidget(m_sourceLabel, 1);
    statusBar()->addPermanentWidget(m_probingLabel);
    statusBar()->setFont(withPointSize(statusBar()->font(), headerPointSize - 1));

    connect(m_pools, &PoolManager::poolsReplaced, this, &MainWindow::poolsReplaced);
    watchNodeStates();
    rebuildNetworkSelector();
    selectNetwork(m_settings->selectedNetwork());
    updateNodesPage();
    setPaused(!m_pools->isRunning());
    restoreLayout();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildToolbar()
{
    QToolBar* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolbar"));
    toolbar->setMovable(false);
    toolbar->setIconSize(QSize(28, 28));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setFont(withPointSize(toolbar->font(), headerPointSize));
    toolbar->setStyleSheet(QStringLiteral("QToolBar { spacing: 8px; padding: 6px; }"));

    auto* networkLabel = new QLabel(tr("Network"), toolbar);
    networkLabel->setFont(withPointSize(font(), headerPointSize, true));
    toolbar->addWidget(networkLabel);
    m_networkSelector = new QComboBox(toolbar);
    m_networkSelector->setObjectName(QStringLiteral("networkSelector"));
    m_networkSelector->setFont(withPointSize(font(), headerPointSize));
    // "All networks", "solana-mainnet": what a 1366 px toolbar has room for beside the verdict.
    m_networkSelector->setMinimumContentsLength(14);
    m_networkSelector->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    toolbar->addWidget(m_networkSelector);
    connect(m_networkSelector, &QComboBox::currentIndexChanged, this, &MainWindow::networkSelected);
    // Only the operator's own choice is kept for the next start, never one a search made.
    connect(m_networkSelector, &QComboBox::activated, this,
            [this] { m_settings->setSelectedNetwork(selectedNetwork()); });
    toolbar->addSeparator();

    m_fallback = new FallbackIndicator(m_pools, toolbar);
    toolbar->addWidget(m_fallback);

    auto* spacer = new QWidget(toolbar);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    toolbar->addWidget(spacer);

    m_search = new QLineEdit(toolbar);
    m_search->setObjectName(QStringLiteral("searchBox"));
    m_search->setPlaceholderText(tr("Signature, hash, intent or node  (Ctrl+F)"));
    m_search->setClearButtonEnabled(true);
    m_search->addAction(themeIcon(QStringLiteral("search")), QLineEdit::LeadingPosition);
    m_search->setFont(withPointSize(font(), headerPointSize));
    // Room for a Solana signature's start; it grows into what the toolbar leaves (up to a
    // whole placeholder), so that on a 1366 px screen the pause and editor buttons stay beside
    // a verdict naming two networks ("Fallback active: demo-solana, demo-evm").
    m_search->setMinimumWidth(m_search->fontMetrics().averageCharWidth() * 16);
    m_search->setMaximumWidth(m_search->fontMetrics().averageCharWidth() * 44);
    m_search->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_search->setMinimumHeight(m_search->fontMetrics().height() * 2);
    toolbar->addWidget(m_search);
    connect(m_search, &QLineEdit::returnPressed, this, [this] { search(m_search->text()); });

    // Paused, the banner takes a row of its own under the toolbar: beside the verdict and the
    // search box it left a 1366 px toolbar no room for its buttons.
    addToolBarBreak();
    m_pausedBar = addToolBar(tr("Paused"));
    m_pausedBar->setObjectName(QStringLiteral("pausedToolbar"));
    m_pausedBar->setMovable(false);
    m_pausedBar->setStyleSheet(QStringLiteral("QToolBar { padding: 0px 6px 6px 6px; }"));
    m_pausedBanner = new QLabel(m_pausedBar);
    m_pausedBanner->setObjectName(QStringLiteral("pausedBanner"));
    m_pausedBanner->setText(tr("Paused: values are not updating"));
    m_pausedBanner->setFont(withPointSize(font(), headerPointSize, true));
    m_pausedBanner->setStyleSheet(
        QStringLiteral("#pausedBanner { background: #37474f; color: white; padding: 6px 12px; "
                       "border-radius: 6px; }"));
    m_pausedBar->addWidget(m_pausedBanner);
    m_pausedBar->hide();

    m_collectorBar = addToolBar(tr("Collector"));
    m_collectorBar->setObjectName(QStringLiteral("collectorToolbar"));
    m_collectorBar->setMovable(false);
    m_collectorBar->setStyleSheet(QStringLiteral("QToolBar { padding: 0px 6px 6px 6px; }"));
    m_collectorBanner = new QLabel(m_collectorBar);
    m_collectorBanner->setObjectName(QStringLiteral("collectorBanner"));
    m_collectorBanner->setFont(withPointSize(font(), headerPointSize, true));
    m_collectorBanner->setStyleSheet(
        QStringLiteral("#collectorBanner { background: #8a5a00; color: white; padding: 6px 12px; "
                       "border-radius: 6px; }"));
    m_collectorBar->addWidget(m_collectorBanner);
    m_collectorBar->hide();

    m_storeBar = addToolBar(tr("Store"));
    m_storeBar->setObjectName(QStringLiteral("storeToolbar"));
    m_storeBar->setMovable(false);
    m_storeBar->setStyleSheet(QStringLiteral("QToolBar { padding: 0px 6px 6px 6px; }"));
    m_storeBanner = new QLabel(m_storeBar);
    m_storeBanner->setObjectName(QStringLiteral("storeBanner"));
    m_storeBanner->setFont(withPointSize(font(), headerPointSize, true));
    m_storeBanner->setStyleSheet(
        QStringLiteral("#storeBanner { background: #b71c1c; color: white; padding: 6px 12px; "
                       "border-radius: 6px; }"));
    m_storeBar->addWidget(m_storeBanner);
    m_storeBar->hide();

    m_pause = toolbar->addAction(themeIcon(QStringLiteral("pause")), tr("Pause probing"));
    m_pause->setObjectName(QStringLiteral("pause"));
    m_pause->setCheckable(true);
    connect(m_pause, &QAction::toggled, this, &MainWindow::setPaused);

    QAction* edit =
        toolbar->addAction(themeIcon(QStringLiteral("edit")), tr("Networks and nodes…"));
    edit->setObjectName(QStringLiteral("editNetworks"));
    connect(edit, &QAction::triggered, this, &MainWindow::openEditor);
    // The toolbar's style sheet stops its buttons from inheriting its font.
    for (QAction* action : {m_pause, edit})
        toolbar->widgetForAction(action)->setFont(withPointSize(font(), headerPointSize));
}

void MainWindow::buildViews()
{
    m_views = new QTabWidget(this);
    m_views->setObjectName(QStringLiteral("views"));
    m_views->setDocumentMode(true);
    m_views->tabBar()->setFont(withPointSize(font(), headerPointSize, true));

    m_nodesPage = new QStackedWidget(m_views);
    m_welcome = new EmptyState(QString(), QString(), m_nodesPage);
    QPushButton* openEditor =
        m_welcome->addButton(tr("Open the editor"), themeIcon(QStringLiteral("edit")));
    openEditor->setObjectName(QStringLiteral("welcomeOpenEditor"));
    connect(openEditor, &QPushButton::clicked, this, &MainWindow::openEditor);
    QPushButton* tryDemo =
        m_welcome->addButton(tr("Try the demo"), themeIcon(QStringLiteral("resume")));
    tryDemo->setObjectName(QStringLiteral("welcomeTryDemo"));
    connect(tryDemo, &QPushButton::clicked, this, &MainWindow::startDemo);
    m_poolView = new PoolView(m_pools, m_poolModel, m_nodesPage);
    m_poolView->restoreHeaderState(m_settings->poolTableHeader());
    m_nodesPage->addWidget(m_welcome);
    m_nodesPage->addWidget(m_poolView);
    m_views->addTab(m_nodesPage, tr("Nodes"));

    m_failoversView = new FailoversView(m_failoverModel, m_views);
    connect(m_failoversView, &FailoversView::windowChanged, m_settings,
            &Settings::setFailoverWindowMs);
    m_views->addTab(m_failoversView, tr("Failovers"));

    m_lagView = new LagView(m_pools, m_lagRecorder, m_views);
    if (const qint64 range = m_settings->lagRangeMs(); LagView::rangesMs().contains(range))
        m_lagView->setRangeMs(range);
    connect(m_lagView, &LagView::rangeChanged, m_settings, &Settings::setLagRangeMs);
    m_views->addTab(m_lagView, tr("Lag"));

    m_views->addTab(new EmptyState(tr("No tracked transactions"),
                                   tr("Transactions imported by their signed bytes are followed "
                                      "here until they land, expire or are superseded."),
                                   m_views),
                    tr("Pending"));
    m_views->addTab(new EmptyState(tr("No store open"),
                                   tr("The timeline is read from the store file; start Switchyard "
                                      "with a writable --db to keep and review incidents."),
                                   m_views),
                    tr("Timeline"));

    m_overview = new OverviewBar(m_overviewModel, this);
    connect(m_overview, &OverviewBar::networkClicked, this, &MainWindow::openNetwork);
    connect(m_views, &QTabWidget::currentChanged, this, [this](int index) {
        m_unseenCritical->setLooking(index == TimelineTab && m_timelineView);
    });
    connect(m_unseenCritical, &UnseenCriticalEvents::countChanged, this,
            &MainWindow::updateTabCounts);
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_overview);
    layout->addWidget(m_views, 1);
    setCentralWidget(central);
    updateTabCounts();
}

void MainWindow::openNetwork(const QString& network)
{
    selectNetwork(network);
    // Clicked by the operator: kept for the next start, as a choice in the selector is.
    m_settings->setSelectedNetwork(selectedNetwork());
    m_views->setCurrentIndex(NodesView);
}

void MainWindow::updateTabCounts()
{
    if (m_pendingPage) {
        const int pending = m_pendingPage->board()->count(BoardColumn::Pending);
        m_views->setTabText(PendingTab,
                            pending > 0 ? tr("Pending %1").arg(pending) : tr("Pending"));
        m_views->setTabToolTip(
            PendingTab,
            selectedNetwork().isEmpty()
                ? tr("%n transaction(s) pending (Imported, Submitted or Transport unknown)",
                     nullptr, pending)
                : tr("%n transaction(s) pending on %1 (Imported, Submitted or Transport unknown)",
                     nullptr, pending)
                      .arg(selectedNetwork()));
    }
    const int unseen = m_unseenCritical->count();
    m_views->setTabText(TimelineTab, unseen > 0 ? tr("Timeline ⚠ %1").arg(unseen) : tr("Timeline"));
    m_views->setTabToolTip(
        TimelineTab, unseen > 0
                         ? tr("%n critical event(s) on any network since you last looked at the "
                              "timeline",
                              nullptr, unseen)
                         : tr("No critical event since you last looked at the timeline"));
}

void MainWindow::setStore(StoreSession* store)
{
    m_store = store;
    const store::StoreAccess& access = store->database().access();
    if (access.acts())
        m_poolView->setQuarantines(store->quarantines());
    else
        m_readOnlyReason = tr("Read only: role %1 may not track, send or quarantine on this "
                              "store (it lacks %2)")
                               .arg(access.user, access.operatorLacks);
    m_attention->setTracker(store->tracker());
    m_timelineView = new TimelineView(store->timeline(), store->path(), m_views);
    replaceTab(TimelineTab, m_timelineView, tr("Timeline"));
    m_timelineView->setNodeNames(nodeNamesOf(selectedNetwork()));
    m_timelineView->setNetwork(selectedNetwork());

    m_pendingPage =
        new PendingPage(store->tracker(), m_pools, store->reads(), Clock::system(), m_views);
    replaceTab(PendingTab, m_pendingPage, tr("Pending"));
    m_pendingPage->board()->setNetwork(selectedNetwork());
    connect(m_pendingPage, &PendingPage::showInTimelineRequested, this,
            &MainWindow::showInTimeline);
    if (isReadOnly())
        m_pendingPage->setReadOnly(m_readOnlyReason +
                                   tr(". The board shows what the collector and the operator "
                                      "desks store."));

    connect(&store->writer(), &store::StoreWriter::retrying, this,
            [this](qsizetype writes, const QString& error) {
                // The driver's words can run to a paragraph: the line keeps their start, the
                // tooltip all of them.
                constexpr int shownChars = 120;
                const QString reason =
                    error.size() > shownChars ? error.left(shownChars) + u'…' : error;
                m_storeBanner->setText(
                    tr("Store unavailable: %1 kept and retried (%2)")
                        .arg(display::counted(writes, tr("write"), tr("writes")), reason));
                m_storeBanner->setToolTip(error);
                m_storeBar->show();
            });
    connect(&store->writer(), &store::StoreWriter::committed, m_storeBar, &QToolBar::hide);
    m_overviewModel->setTracker(store->tracker());
    m_unseenCritical->watch(store->tracker());
    m_unseenCritical->setLooking(m_views->currentIndex() == TimelineTab);
    BoardColumnProxy* pending = m_pendingPage->board()->columnModel(BoardColumn::Pending);
    for (const auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(pending, signal, this, &MainWindow::updateTabCounts);
    connect(pending, &QAbstractItemModel::modelReset, this, &MainWindow::updateTabCounts);
    updateTabCounts();
    updateStatus();
}

void MainWindow::replaceTab(int index, QWidget* view, const QString& title)
{
    const bool current = m_views->currentIndex() == index;
    QWidget* placeholder = m_views->widget(index);
    m_views->removeTab(index);
    m_views->insertTab(index, view, title);
    placeholder->deleteLater();
    if (current)
        m_views->setCurrentIndex(index);
}

void MainWindow::showInTimeline(const QString& id)
{
    if (!m_timelineView)
        return;
    m_timelineView->showTransaction(id);
    m_views->setCurrentIndex(TimelineTab);
    activateWindow();
}

void MainWindow::showStoreProblem(const QString& error)
{
    if (auto* empty = qobject_cast<EmptyState*>(m_views->widget(PendingTab)))
        empty->setText(tr("Nothing can be tracked"),
                       tr("Tracked transactions are kept in the store before anything is sent, "
                          "and the store cannot be used: %1")
                           .arg(error));
    if (auto* empty = qobject_cast<EmptyState*>(m_views->widget(TimelineTab)))
        empty->setText(tr("Nothing is being kept"),
                       tr("The store cannot be used, so events are shown nowhere and kept "
                          "nowhere: %1")
                           .arg(error));
}

QStringList MainWindow::nodeNamesOf(const QString& network) const
{
    QStringList names;
    for (const NetworkConfig& config : m_pools->config().networks)
        if (network.isEmpty() || config.name == network)
            for (const NodeConfig& node : config.nodes)
                if (!names.contains(node.name))
                    names.append(node.name);
    return names;
}

QCoro::Task<> MainWindow::search(QString text)
{
    // What the store holds under the text as an intent id, read off this thread; a transaction
    // id is one before it could be an intent.
    QList<store::StoredTransaction> underIntent;
    const QString trimmed = text.trimmed();
    if (m_store && !trimmed.isEmpty() && !parseTransactionId(trimmed)) {
        auto job = [trimmed](store::Database& db) {
            return db.transactionsByIntent(trimmed);
        };
        QPointer<MainWindow> self(this);
        const auto read = co_await m_store->reads()->read(std::move(job));
        if (!self)
            co_return;
        if (read && read->ok())
            underIntent = read->value;
    }
    const SearchClassification found =
        classifySearch(text, m_pools->config(), [&](const QString& intent) {
            return intent == trimmed && !underIntent.isEmpty();
        });
    switch (found.kind) {
    case SearchKind::TransactionId:
        lookUpTransaction(found.text, found.family);
        co_return;
    case SearchKind::NodeName:
        showNode(found.network, found.node);
        co_return;
    case SearchKind::IntentId:
        lookUpTransaction(underIntent.constFirst().id, underIntent.constFirst().family);
        co_return;
    case SearchKind::Text:
        break;
    }
    if (m_timelineView) {
        m_timelineView->setText(found.text);
        m_views->setCurrentIndex(TimelineTab);
    } else {
        statusBar()->showMessage(
            tr("\"%1\" is not a signature, hash or node name, and there is no timeline to search")
                .arg(found.text),
            8000);
    }
}

QCoro::Task<> MainWindow::showLocalRecord(QString id)
{
    LookupDialog::LocalRecord local;
    if (!m_store) {
        local.headline = tr("No store is open: nothing is known locally.");
        m_lookup->setLocalRecord(local);
        co_return;
    }
    struct Read
    {
        store::ReadResult<std::optional<store::StoredTransaction>> tracked;
        store::ReadResult<QList<store::StoredEvent>> events;
        store::ReadResult<QList<store::SendAttempt>> attempts;
    };
    // On the store's read thread: a server that answers slowly keeps the lookup's local part
    // waiting, not the window.
    auto job = [id](store::Database& db) {
        return Read{db.transaction(id), db.eventsForTransaction(id), db.attempts(id)};
    };
    QPointer<MainWindow> self(this);
    const std::optional<Read> read = co_await m_store->reads()->read(std::move(job));
    // Another id may be looked up by now: its own read answers it.
    if (!self || !read || !m_lookup || m_lookup->id() != id)
        co_return;
    const auto& [tracked, events, attempts] = *read;
    if (!tracked.ok() || !events.ok()) {
        local.headline =
            tr("The store cannot be read: %1").arg(tracked.ok() ? events.error : tracked.error);
        m_lookup->setLocalRecord(local);
        co_return;
    }
    local.canTrack = m_pendingPage != nullptr && !m_pendingPage->isReadOnly();
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    QString& headline = local.headline;
    if (const std::optional<store::StoredTransaction>& record = tracked.value) {
        local.tracked = true;
        local.wire = record->wire;
        const std::optional<tracking::TxState> state = tracking::txStateFromKey(record->state);
        headline = tr("Tracked on %1: %2 since %3, %4%5")
                       .arg(record->network, state ? tracking::txStateWord(*state) : record->state,
                            display::timeAndAge(record->stateSinceMs, nowMs),
                            display::counted(attempts.ok() ? attempts.value.size() : 0,
                                             tr("send attempt"), tr("send attempts")),
                            record->intentId.isEmpty() ? QString()
                                                       : tr(", intent %1").arg(record->intentId));
        if (!record->wire)
            headline += tr(" · watched without its bytes: it can be looked up, never rebroadcast");
    } else {
        headline = tr("Not tracked on this machine.");
    }
    for (auto event = events.value.crbegin(); event != events.value.crend(); ++event)
        local.events.append(QStringLiteral("%1  ·  %2  ·  %3")
                                .arg(display::timeAndAge(event->timeMs, nowMs),
                                     eventtext::severityWord(event->severity), event->message));
    m_lookup->setLocalRecord(local);
}

void MainWindow::showNode(const QString& network, const QString& node)
{
    // A search never narrows what is shown: when the selector hides the node's network, it
    // goes to every network, and says so.
    if (!networkMatches(selectedNetwork(), network)) {
        const QString before = m_networkSelector->currentText();
        selectNetwork({});
        statusBar()->showMessage(tr("Network selector switched from %1 to %2 to show node %3 "
                                    "of %4 (not kept for the next start).")
                                     .arg(before, m_networkSelector->currentText(), node, network),
                                 searchMessageMs);
    }
    m_views->setCurrentIndex(NodesView);
    QAbstractItemModel* rows = m_poolView->table()->model();
    for (int row = 0; row < rows->rowCount(); ++row) {
        const QModelIndex name = rows->index(row, PoolTableModel::Node);
        if (name.data(NetworkRole).toString() == network && name.data().toString() == node) {
            m_poolView->table()->selectRow(row);
            m_poolView->table()->scrollTo(name);
            m_poolView->table()->setFocus();
            return;
        }
    }
}

void MainWindow::lookUpTransaction(const QString& id, ChainFamily family)
{
    if (!m_lookup) {
        m_lookup = new LookupDialog(m_pools, this);
        connect(m_lookup, &LookupDialog::showInTimelineRequested, this,
                &MainWindow::showInTimeline);
        connect(m_lookup, &LookupDialog::refreshed, this, &MainWindow::showLocalRecord);
        connect(m_lookup, &LookupDialog::trackRequested, this, [this](const QString& txId) {
            m_views->setCurrentIndex(PendingTab);
            ImportDialog* import = m_pendingPage->openImport();
            if (!import)
                return;
            connect(import, &ImportDialog::tracked, this, &MainWindow::lookupMayBeTracked,
                    Qt::UniqueConnection);
            import->addText(txId);
        });
    }
    m_lookup->lookUp({family, id});
    showLocalRecord(id);
    m_lookup->show();
    m_lookup->raise();
}

void MainWindow::lookupMayBeTracked(const QStringList& ids)
{
    // Once tracked, the lookup says so, and offers Track no more.
    if (m_lookup && ids.contains(m_lookup->query().id))
        showLocalRecord(m_lookup->query().id);
}

void MainWindow::restoreLayout()
{
    if (!restoreGeometry(m_settings->windowGeometry())) {
        // A first start: 1600×960, or what fits the screen it opens on, frame included (a
        // 1366×768 laptop), so that no toolbar button and no title bar starts off screen.
        fitToScreen(this, QSize(1600, 960));
    }
    restoreState(m_settings->windowState());
    m_pausedBar->setVisible(m_pause->isChecked()); // whatever the saved state says
    m_views->setCurrentIndex(qBound(0, m_settings->currentView(), m_views->count() - 1));
}

bool MainWindow::isPausedBannerShown() const
{
    return !m_pausedBar->isHidden();
}

bool MainWindow::isShowingNodes() const
{
    return m_nodesPage->currentWidget() == m_poolView;
}

QString MainWindow::selectedNetwork() const
{
    return m_networkSelector->currentData().toString();
}

void MainWindow::selectNetwork(const QString& network)
{
    const int index = m_networkSelector->findData(network);
    m_networkSelector->setCurrentIndex(index >= 0 ? index : 0);
}

void MainWindow::rebuildNetworkSelector()
{
    const QString selected = selectedNetwork();
    const QSignalBlocker blocker(m_networkSelector);
    m_networkSelector->clear();
    const QList<std::shared_ptr<NetworkPool>> pools = m_pools->pools();
    if (pools.isEmpty()) {
        m_networkSelector->addItem(tr("No networks configured"), QString());
        m_networkSelector->setEnabled(false);
    } else {
        m_networkSelector->setEnabled(true);
        m_networkSelector->addItem(tr("All networks"), QString());
        for (const std::shared_ptr<NetworkPool>& pool : pools)
            m_networkSelector->addItem(
                tr("%1 (%2)").arg(pool->config().name,
                                  chain::familyRules(pool->config().family).displayName()),
                pool->config().name);
    }
    const int index = m_networkSelector->findData(selected);
    m_networkSelector->setCurrentIndex(index >= 0 ? index : 0);
}

void MainWindow::networkSelected()
{
    const QString network = selectedNetwork();
    m_poolView->setNetwork(network);
    m_failoversView->setNetwork(network);
    m_lagView->setNetwork(network);
    m_fallback->setNetwork(network);
    if (m_timelineView) {
        m_timelineView->setNodeNames(nodeNamesOf(network));
        m_timelineView->setNetwork(network);
    }
    if (m_pendingPage) {
        m_pendingPage->board()->setNetwork(network);
    }
    m_overview->setSelectedNetwork(network);
    updateTabCounts();
}

void MainWindow::poolsReplaced()
{
    rebuildNetworkSelector();
    networkSelected();
    updateNodesPage();
    updateStatus();
    watchNodeStates();
}

void MainWindow::watchNodeStates()
{
    // A node switched off or on changes how many are probed; a state change is an incident.
    for (const std::shared_ptr<NetworkPool>& pool : m_pools->pools())
        connect(pool.get(), &NetworkPool::incident, this, &MainWindow::updateProbingLabel,
                Qt::UniqueConnection);
}

void MainWindow::updateNodesPage()
{
    const bool hasNodes = m_poolModel->rowCount() > 0;
    if (hasNodes) {
        m_nodesPage->setCurrentWidget(m_poolView);
    } else {
        const bool firstStart = m_source.path.isEmpty() && !m_source.demo;
        if (firstStart)
            m_welcome->setText(tr("Welcome to Switchyard"),
                               tr("Describe your RPC providers in the editor (networks from "
                                  "presets, API keys as ${NAME} variables), or watch a simulated "
                                  "Solana cluster and EVM chain first: the demo needs no internet "
                                  "and no keys."));
        else
            m_welcome->setText(tr("No networks configured"),
                               tr("Add a network and its nodes in the editor. Everything else "
                                  "in this window follows from them."));
        m_welcome->findChild<QPushButton*>(QStringLiteral("welcomeTryDemo"))
            ->setVisible(firstStart && m_startDemo);
        m_nodesPage->setCurrentWidget(m_welcome);
    }
    updateStatus();
}

void MainWindow::updateStatus()
{
    const QString title =
        m_source.demo ? tr("Switchyard — demo (simulated nodes)") : tr("Switchyard");
    m_attention->setBaseTitle(isReadOnly() ? tr("%1 — read only").arg(title) : title);
    m_readOnlyLabel->setText(isReadOnly() ? tr("READ ONLY") : QString());
    m_readOnlyLabel->setToolTip(m_readOnlyReason);
    m_readOnlyLabel->setVisible(isReadOnly());
    if (m_source.demo)
        m_sourceLabel->setText(
            tr("Demo: a simulated cluster on 127.0.0.1, no internet and no keys"));
    else if (m_source.path.isEmpty())
        m_sourceLabel->setText(tr("No configuration file yet"));
    else
        m_sourceLabel->setText(tr("Configuration: %1").arg(m_source.path));

    updateProbingLabel();
}

void MainWindow::quitSwitchyard()
{
    int pending = 0;
    if (m_store) {
        for (const tracking::TrackedTransaction& record : m_store->tracker()->transactions())
            pending += tracking::isPending(record.state) ? 1 : 0;
    }
    const auto quit = [this] {
        close(); // keeps the window's layout, as closing it does
        QCoreApplication::quit();
    };
    if (pending == 0) {
        quit();
        return;
    }
    if (QMessageBox* asked = m_quitQuestion) {
        asked->raise();
        return;
    }
    auto* question = new QMessageBox(
        QMessageBox::Question, tr("Quit Switchyard?"),
        tr("%1 pending: quitting stops watching them here. They stay "
           "tracked in the store and are followed again at the next "
           "start.")
            .arg(display::counted(pending, tr("transaction is"), tr("transactions are"))),
        QMessageBox::Cancel, this);
    question->setObjectName(QStringLiteral("quitQuestion"));
    question->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton* quitButton = question->addButton(tr("Quit"), QMessageBox::DestructiveRole);
    quitButton->setObjectName(QStringLiteral("quitAnyway"));
    QPushButton* keep = nullptr;
    if (m_attention->canKeepWatching()) {
        keep = question->addButton(tr("Keep watching from the tray"), QMessageBox::AcceptRole);
        keep->setObjectName(QStringLiteral("quitKeepWatching"));
        question->setDefaultButton(keep);
    } else {
        question->setDefaultButton(QMessageBox::Cancel);
    }
    connect(question, &QMessageBox::buttonClicked, this,
            [this, quit, quitButton, keep](QAbstractButton* clicked) {
                if (clicked == quitButton)
                    quit();
                else if (keep && clicked == keep)
                    m_attention->keepWatchingFromTray();
            });
    m_quitQuestion = question;
    question->open();
}

void MainWindow::setCollectorFollower(CollectorFollower* follower)
{
    m_follower = follower;
    // Made only here: the status bar is as tall as its tallest widget, shown or not, and a
    // desk without a store keeps the height the laptop screen leaves it.
    m_probeFromThisDesk = new QCheckBox(tr("Probe from this desk too"), this);
    m_probeFromThisDesk->setObjectName(QStringLiteral("probeFromThisDesk"));
    m_probeFromThisDesk->setToolTip(
        tr("The store has a collector: this desk shows its probe states and probes no node "
           "itself. On, this desk probes every node as well (probeFromThisDesk in the "
           "configuration file, --probe-from-this-desk)."));
    statusBar()->addPermanentWidget(m_probeFromThisDesk);
    connect(m_follower, &CollectorFollower::changed, this, &MainWindow::updateCollector);
    connect(m_probeFromThisDesk, &QCheckBox::toggled, m_follower,
            &CollectorFollower::setProbeFromThisDesk);
    updateCollector();
}

bool MainWindow::followsCollector() const
{
    return m_follower && m_follower->isFollowing();
}

bool MainWindow::isStoreBannerShown() const
{
    return !m_storeBar->isHidden();
}

QString MainWindow::storeBannerText() const
{
    return m_storeBanner->text();
}

bool MainWindow::isCollectorBannerShown() const
{
    return !m_collectorBar->isHidden();
}

QString MainWindow::collectorBannerText() const
{
    return m_collectorBanner->text();
}

void MainWindow::updateCollector()
{
    const bool hasCollector = !m_follower->collector().isEmpty();
    m_probeFromThisDesk->setVisible(hasCollector);
    {
        const QSignalBlocker quiet(m_probeFromThisDesk);
        m_probeFromThisDesk->setChecked(m_follower->probesFromThisDesk());
    }
    const std::optional<qint64> seenAgo = m_follower->lastSeenAgeMs();
    if (m_follower->isLate() && seenAgo) {
        m_collectorBanner->setText(
            followsCollector() ? tr("Collector %1 last seen %2: the node states shown are as old")
                                     .arg(m_follower->collector(), display::age(*seenAgo))
                               : tr("Collector %1 last seen %2")
                                     .arg(m_follower->collector(), display::age(*seenAgo)));
        m_collectorBanner->setToolTip(
            tr("No lease renewal and no probe state from the store's collector for more than "
               "%1 s. Turn on \"Probe from this desk too\" to see live values here.")
                .arg(m_follower->lateAfterMs() / 1000.0));
    }
    m_collectorBar->setVisible(m_follower->isLate() && seenAgo);
    // Following, the pools are stopped by the follower: that is no pause.
    m_pause->setEnabled(!followsCollector());
    if (followsCollector() && m_pause->isChecked())
        setPaused(false);
    updateProbingLabel();
}

QString MainWindow::probingText() const
{
    return m_probingLabel->text();
}

void MainWindow::updateProbingLabel()
{
    int nodes = 0;
    int disabled = 0;
    for (const std::shared_ptr<NetworkPool>& pool : m_pools->pools()) {
        nodes += pool->nodeCount();
        for (int i = 0; i < pool->nodeCount(); ++i)
            disabled += pool->node(i).health.state() == NodeState::Disabled ? 1 : 0;
    }
    const QString switchedOff =
        disabled > 0 ? tr(" (%1 disabled, not probed)").arg(display::count(disabled)) : QString();
    if (followsCollector())
        m_probingLabel->setText(tr("Showing the probes of collector %1: this desk probes none")
                                    .arg(m_follower->collector()));
    else if (m_pause->isChecked())
        m_probingLabel->setText(tr("Paused: no probes are sent"));
    else if (nodes == 0)
        m_probingLabel->setText(QString());
    else
        m_probingLabel->setText(
            tr("Probing %1 in %2 every %3 s%4")
                .arg(display::counted(nodes - disabled, tr("node"), tr("nodes")))
                .arg(display::counted(m_pools->pools().size(), tr("network"), tr("networks")))
                .arg(m_pools->config().probe.intervalMs / 1000.0)
                .arg(switchedOff));
}

void MainWindow::setPaused(bool paused)
{
    if (m_pause->isChecked() != paused) {
        m_pause->setChecked(paused); // comes back here through toggled()
        return;
    }
    if (paused)
        m_pools->stop();
    else if (!m_pools->isRunning() && !followsCollector())
        m_pools->start();
    m_pause->setIcon(themeIcon(paused ? QStringLiteral("resume") : QStringLiteral("pause")));
    m_pause->setText(paused ? tr("Resume probing") : tr("Pause probing"));
    m_pause->setToolTip(paused ? tr("Probing is stopped: resume it to see live values")
                               : tr("Stop probing the nodes (the values stay as they are)"));
    m_pausedBar->setVisible(paused);
    updateStatus();
}

NetworksEditorDialog* MainWindow::openEditor()
{
    const bool demo = m_source.demo;
    const QString path = m_source.path.isEmpty() ? defaultConfigPath() : m_source.path;
    auto* editor = new NetworksEditorDialog(
        m_pools->config(), path,
        demo ? NetworksEditorDialog::Target::Session : NetworksEditorDialog::Target::File, this);
    editor->setAttribute(Qt::WA_DeleteOnClose);
    connect(editor, &NetworksEditorDialog::saved, this, [this, editor, demo](const Config& config) {
        if (!demo)
            m_source.path = editor->path();
        applyEdited(config);
    });
    editor->open();
    return editor;
}

void MainWindow::applyEdited(const Config& config)
{
    m_pools->applyConfig(config);
    if (!m_pause->isChecked() && !m_pools->isRunning() && !followsCollector())
        m_pools->start();
    updateStatus();
}

void MainWindow::offerDemo(DemoStarter startDemo)
{
    m_startDemo = std::move(startDemo);
    updateNodesPage();
}

void MainWindow::startDemo()
{
    if (!m_startDemo)
        return;
    // In this process rather than a restart: nothing to spawn, and the window, its settings and
    // the pool manager stay; the simulated nodes live as long as the window.
    m_source = ConfigSource{QString(), true};
    m_demo = m_startDemo(m_pools);
    setPaused(false);
    updateStatus();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_settings->setWindowGeometry(saveGeometry());
    m_settings->setWindowState(saveState());
    m_settings->setCurrentView(m_views->currentIndex());
    m_settings->setPoolTableHeader(m_poolView->headerState());
    QMainWindow::closeEvent(event);
}

} // namespace switchyard::ui
