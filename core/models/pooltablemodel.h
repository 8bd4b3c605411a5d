#pragma once

#include "chain/family.h"
#include "config/config.h"
#include "models/keyedtablemodel.h"
#include "models/modelroles.h"
#include "pool/nodestate.h"
#include "pool/pushsubscription.h"
#include "pool/routingrules.h"

#include <QTimer>
#include <memory>
#include <optional>

namespace switchyard {

class NetworkPool;
class PoolManager;

// One row per node of every network a PoolManager watches, in configuration order. Probes and
// calls merge into the rows with ranged dataChanged (never a reset), so selection and scroll
// survive; a reconfiguration removes and inserts the rows that came and went and keeps the
// others. "Last probe" ages once per second through a dataChanged on that column alone.
class PoolTableModel : public KeyedTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Node,
        Network,
        Roles,
        State,
        Height,
        Lag,
        LatencyP50,
        LatencyP95,
        Protocol,
        ErrorRate,
        ConsecutiveFailures,
        LastError,
        SinceLastProbe,
        ColumnCount
    };
    enum Role
    {
        StateRole = FirstModelSpecificRole, // NodeState as int
        DisplayUrlRole,                     // the redacted URL: the only form that may be shown
        LagExcludedRole,                    // past maxLag: kept out of build and send
        DisabledRole,                       // switched off by the operator
        PushDownRole,    // has a wsUrl but is not subscribed now: polling carries the node
        QuarantinedRole, // kept out of every role by an operator (bool)
    };

    explicit PoolTableModel(PoolManager* manager, QObject* parent = nullptr);
    ~PoolTableModel() override;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // -1 when the node is not (or no longer) shown.
    int rowOf(const QString& network, const QString& node) const;

    // How often "Last probe" ages; 0 stops it (tests call refreshProbeAges() themselves).
    void setAgeRefreshInterval(int ms);
    int ageRefreshInterval() const;

public Q_SLOTS:
    void refreshProbeAges();
    // Merges every node of every pool, as after a full round of probes.
    void refreshAll();

private:
    struct Row
    {
        int poolIndex = 0;
        int nodeIndex = 0;
        QString network;
        ChainFamily family = ChainFamily::Solana;
        QString node;
        NodeRoles roles;
        QString displayUrl;
        NodeState state = NodeState::NotProbed;
        NodeState probedState = NodeState::NotProbed; // what its probes say, quarantined or not
        QString quarantine; // "by alice since …: reason" while quarantined
        std::optional<qint64> height;
        std::optional<qint64> lag;
        bool lagExcluded = false;
        std::optional<qint64> latencyP50;
        std::optional<qint64> latencyP95;
        std::optional<qint64> connectP50; // opening a connection (TCP, TLS), apart from latency
        int connections = 0;              // connections opened behind connectP50
        double errorRate = 0;
        int consecutiveFailures = 0;
        std::optional<FailureCause> lastCause;
        std::optional<TlsProblem> tlsProblem;
        QString lastError;
        QString disagreement;  // "disagrees with b at block …" (two nodes that disagree)
        QString disagreesWith; // b
        QString protocol;
        PushState push = PushState::Off;
        QString pushError; // redacted
        std::optional<qint64> lastProbeMs;
        QString probedBy; // the collector whose probe this is; empty: this process's own
        qint64 cooldownUntilMs = 0;
        qint64 warnLag = 0;
        qint64 maxLag = 0;

        QString key() const;
    };

    static Row snapshot(const NetworkPool& pool, int poolIndex, int nodeIndex);
    // What a probe of another node of the network can change: the reference height moves, and
    // with it lag, the lag band and the state (a stale head is judged there too).
    static void refreshReferenceFields(Row& row, const NetworkPool& pool);
    static quint64 changedColumns(const Row& before, const Row& after);
    QList<Row> snapshotAll() const;
    void adoptPools();
    // `changedNode` -1: every node of the pool in full.
    void mergePool(int poolIndex, int changedNode = -1);
    void mergeRows(QList<Row> fresh);
    std::optional<qint64> probeAgeMs(const Row& row) const;
    QVariant display(const Row& row, int column) const;
    QVariant sortValue(const Row& row, int column) const;
    QVariant toolTip(const Row& row, int column) const;
    // "Last probe: 3 s ago", and whose probe it was when not this process's.
    QString lastProbeText(const Row& row) const;

    PoolManager* m_manager;
    QList<std::shared_ptr<NetworkPool>> m_pools;
    QList<int> m_firstRowOfPool;
    QList<Row> m_rows;
    QTimer m_ageTimer;
};

} // namespace switchyard
