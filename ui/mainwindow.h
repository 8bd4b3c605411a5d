#pragma once

#include "config/config.h"

#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <functional>
#include <memory>
#include <qcorotask.h>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QTabWidget;
class QToolBar;

namespace switchyard {
class CollectorFollower;
class FailoverTableModel;
class LagRecorder;
class NetworkOverviewModel;
class UnseenCriticalEvents;
class PoolManager;
class PoolTableModel;
class StoreSession;
class Settings;
} // namespace switchyard

namespace switchyard::ui {

class AttentionController;
class EmptyState;
class FailoversView;
class FallbackIndicator;
class LagView;
class NetworksEditorDialog;
class OverviewBar;
class PendingPage;
class LookupDialog;
class PoolView;
class TimelineView;

// Where the configuration came from, for the title and the status bar.
struct ConfigSource
{
    QString path;      // the file, or empty when there is none yet
    bool demo = false; // the built-in simulated cluster
};

// Points `pools` at the built-in simulated cluster and returns what keeps its nodes running. The
// simulator is no part of the UI: the app hands the window one of these.
using DemoStarter = std::function<std::unique_ptr<QObject>(PoolManager* pools)>;

// The dashboard: a toolbar (network selector, search, fallback indicator, pause, editor) over
// one overview tile per network, over the node table, failovers, lag, the pending-transaction board
// and the timeline. It shows what the PoolManager knows and asks it to act; it decides nothing
// itself.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum View
    {
        NodesView,
        FailoversTab,
        LagTab,
        PendingTab,
        TimelineTab
    };

    MainWindow(PoolManager* pools, ConfigSource source, Settings* settings,
               QWidget* parent = nullptr);
    ~MainWindow() override;

    QTabWidget* views() const { return m_views; }
    AttentionController* attention() const { return m_attention; }
    OverviewBar* overviewBar() const { return m_overview; }
    NetworkOverviewModel* overviewModel() const { return m_overviewModel; }
    QComboBox* networkSelector() const { return m_networkSelector; }
    PoolView* poolView() const { return m_poolView; }
    FailoversView* failoversView() const { return m_failoversView; }
    LagView* lagView() const { return m_lagView; }
    TimelineView* timelineView() const { return m_timelineView; } // null until setStore()
    PendingPage* pendingPage() const { return m_pendingPage; }    // null until setStore()
    FallbackIndicator* fallbackIndicator() const { return m_fallback; }
    QString probingText() const; // the status bar's "Probing N nodes …"
    // File → Quit (Ctrl+Q): quits at once when nothing is pending; otherwise asks first, and
    // offers to keep watching from the tray instead where there is one.
    void quitSwitchyard();
    QMessageBox* quitQuestion() const { return m_quitQuestion; } // while it is asked
    QAction* pauseAction() const { return m_pause; }
    QLineEdit* searchBox() const { return m_search; }
    LookupDialog* lookupDialog() const { return m_lookup; } // null until a first id lookup
    bool isPausedBannerShown() const;
    EmptyState* welcome() const { return m_welcome; }
    bool isShowingNodes() const; // the table, rather than a welcome or empty state
    const ConfigSource& source() const { return m_source; }
    // The welcome state offers "Try the demo" only once it is given the way to start one.
    void offerDemo(DemoStarter startDemo);

    // The store (owned by the caller): the Timeline tab reads it, the search box finds its
    // transactions and intents. Without it the Timeline tab says there is no store.
    void setStore(StoreSession* store);
    // The store could not be opened: the Timeline tab says what is wrong with which file.
    void showStoreProblem(const QString& error);
    // The store's collector, followed or not (owned by the caller): the status bar says whose
    // probes the node table shows and offers "Probe from this desk too", and a banner says when
    // the collector is late.
    void setCollectorFollower(CollectorFollower* follower);
    QCheckBox* probeFromThisDeskBox() const
    {
        return m_probeFromThisDesk;
    } // null before setCollectorFollower()
    bool isCollectorBannerShown() const;
    // While the store fails (the server away, the disk full): one line, until a commit works.
    bool isStoreBannerShown() const;
    QString storeBannerText() const;
    QString collectorBannerText() const;
    // The store's role may not track, send or quarantine (store::StoreAccess): none of those is
    // offered, the title and the status bar say "read only", and this says why; else empty.
    QString readOnlyReason() const { return m_readOnlyReason; }
    bool isReadOnly() const { return !m_readOnlyReason.isEmpty(); }

    // The network the views show; empty: all.
    QString selectedNetwork() const;
    void selectNetwork(const QString& network);

public Q_SLOTS:
    // The search box's question: a signature or hash opens the live lookup, an intent id its
    // transaction, a node name the node's row, anything else the timeline's text filter.
    // A transaction id looks it up at once; other text is first asked of the store (an intent
    // id?) on its read thread.
    QCoro::Task<> search(QString text);
    // Opens the networks and nodes editor (non-blocking); returns it for the caller to watch.
    NetworksEditorDialog* openEditor();
    // "Try the demo" from the welcome state: a simulated cluster in this process (offerDemo()).
    void startDemo();
    void setPaused(bool paused);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildToolbar();
    void buildViews();
    void restoreLayout();
    void poolsReplaced();
    void rebuildNetworkSelector();
    void networkSelected();
    QStringList nodeNamesOf(const QString& network) const;
    void showNode(const QString& network, const QString& node);
    void lookUpTransaction(const QString& id, ChainFamily family);
    QCoro::Task<> showLocalRecord(QString id);
    void showInTimeline(const QString& id);
    void replaceTab(int index, QWidget* view, const QString& title);
    void updateNodesPage();
    void updateStatus();
    void lookupMayBeTracked(const QStringList& ids); // ids the Track dialog just tracked
    void updateProbingLabel();                       // how many nodes are probed, in the status bar
    void updateCollector();
    bool followsCollector() const;
    void watchNodeStates();
    void openNetwork(const QString& network);
    void updateTabCounts();
    void applyEdited(const Config& config);

    PoolManager* m_pools;
    AttentionController* m_attention;
    QPointer<QMessageBox> m_quitQuestion;
    ConfigSource m_source;
    Settings* m_settings;
    DemoStarter m_startDemo;
    std::unique_ptr<QObject> m_demo; // when the demo was started from the window
    PoolTableModel* m_poolModel;
    FailoverTableModel* m_failoverModel;
    LagRecorder* m_lagRecorder;
    NetworkOverviewModel* m_overviewModel;
    UnseenCriticalEvents* m_unseenCritical;
    OverviewBar* m_overview = nullptr;
    QComboBox* m_networkSelector = nullptr;
    FallbackIndicator* m_fallback = nullptr;
    QAction* m_pause = nullptr;
    QLineEdit* m_search = nullptr;
    LookupDialog* m_lookup = nullptr;
    QLabel* m_pausedBanner = nullptr;
    QToolBar* m_pausedBar = nullptr; // the banner's row, shown while paused
    CollectorFollower* m_follower = nullptr;
    QLabel* m_collectorBanner = nullptr;
    QToolBar* m_collectorBar = nullptr; // the banner's row, shown while the collector is late
    QCheckBox* m_probeFromThisDesk = nullptr;
    QLabel* m_storeBanner = nullptr;
    QToolBar* m_storeBar = nullptr; // the banner's row, shown while the store fails
    QTabWidget* m_views = nullptr;
    QStackedWidget* m_nodesPage = nullptr;
    EmptyState* m_welcome = nullptr;
    PoolView* m_poolView = nullptr;
    FailoversView* m_failoversView = nullptr;
    LagView* m_lagView = nullptr;
    TimelineView* m_timelineView = nullptr;
    PendingPage* m_pendingPage = nullptr;
    StoreSession* m_store = nullptr;
    QLabel* m_sourceLabel = nullptr;
    QLabel* m_probingLabel = nullptr;
    QLabel* m_readOnlyLabel = nullptr;
    QString m_readOnlyReason;
};

} // namespace switchyard::ui
