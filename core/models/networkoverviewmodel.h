#pragma once

#include "chain/family.h"
#include "models/modelroles.h"

#include <QAbstractListModel>
#include <QStringList>
#include <QTimer>

namespace switchyard {

class NetworkPool;
class PoolManager;

namespace tracking {
class TransactionTracker;
} // namespace tracking

// A network as one word, worst first: what the overview tile says from across the room.
enum class NetworkVerdict
{
    Down,     // a role some node holds has no node left to serve it
    Degraded, // served, but a node lags, fails or answers for another network, or fallback
    Waiting,  // no node has answered a probe yet
    Healthy,  // every node serving within warnLag, every role on its first choice
    NoNodes,  // the network lists no node
};

QString networkVerdictWord(NetworkVerdict verdict);     // "Down", "Degraded", ...
QString networkVerdictIconName(NetworkVerdict verdict); // theme icon name

// One network at a glance: its verdict, its nodes by what they do, fallback, and its tracked
// transactions that still need someone to look.
struct NetworkOverview
{
    QString network;
    ChainFamily family = ChainFamily::Solana;
    NetworkVerdict verdict = NetworkVerdict::NoNodes;
    int nodes = 0;
    int serving = 0;   // Healthy or Lagging: taking calls
    int lagging = 0;   // serving, but behind warnLag
    int unhealthy = 0; // Unhealthy, Probation, Wrong network or Diverged: taking no calls
    int diverged = 0;  // of those, Diverged: critical, and said by name on the tile
    int disabled = 0;
    int quarantined = 0; // kept out of every role by an operator, still probed
    bool fallback = false;
    QStringList rolesDown;     // "send", "status": roles no node of this network can serve now
    bool noRoleServed = false; // every role the network's nodes hold is down
    QStringList problems;      // "sol-b unhealthy", "no node for send", "read: a is not serving"
    int pending = 0;           // Imported, Submitted or Transport unknown
    int stuck = 0;             // Transport unknown: a send left and no answer says where it is
    int nearExpiry = 0;        // pending Solana near expiry (tracking::isNearExpiry)
    int nearExpiryBlocks = 0;  // the threshold those were counted with
    bool tracksTransactions = false; // a tracker was given: the three counts above mean something

    // Several lines for a tooltip: the verdict's reasons and what each count covers.
    QString explanation() const;
    bool operator==(const NetworkOverview&) const = default;
};

// A network's verdict, node counts, problems and fallback from its pool alone (no transaction
// counts): what its tile and the toolbar's verdict both say.
NetworkOverview judgeNetwork(const NetworkPool& pool);

// One row per configured network, in configuration order, with its NetworkOverview: node counts
// and fallback from the PoolManager, transaction counts from the tracker (when one is given).
// Changes are gathered and merged once per turn of the event loop into dataChanged of the rows
// that changed; a new configuration resets. Fallback also ends with time (a call failed over in
// the last minute), so the rows are looked at again every second.
class NetworkOverviewModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role
    {
        VerdictRole = FirstModelSpecificRole, // NetworkVerdict as int
        VerdictWordRole,
        VerdictIconRole, // theme icon name
        FamilyRole,      // "Solana" / "EVM"
        NodesRole,
        ServingRole,
        LaggingRole,
        UnhealthyRole,
        FallbackRole, // bool
        PendingRole,
        StuckRole,
        NearExpiryRole,
    };

    explicit NetworkOverviewModel(PoolManager* pools, QObject* parent = nullptr);
    ~NetworkOverviewModel() override;

    // The tracked transactions counted per network; null: none are (no store).
    void setTracker(tracking::TransactionTracker* tracker);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    const NetworkOverview& overview(int row) const { return m_rows.at(row); }
    int rowOf(const QString& network) const; // -1 when not configured

    // How often fallback that ended with time is looked at; 0 stops it (tests refresh()).
    void setRefreshInterval(int ms);

public Q_SLOTS:
    // Works every row out again now, instead of on the next turn of the event loop.
    void refresh();

private:
    void rebuild();
    void adoptPools();
    void scheduleRefresh();
    QList<NetworkOverview> compute() const;

    PoolManager* m_pools;
    tracking::TransactionTracker* m_tracker = nullptr;
    QList<NetworkOverview> m_rows;
    QTimer m_coalesce;
    QTimer m_expiry;
};

} // namespace switchyard
