#pragma once

#include "alerts/alertrules.h"
#include "chain/family.h"

#include <QByteArray>
#include <QFlags>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <array>

namespace switchyard {

enum class NodeRole
{
    Read = 0x1,
    Build = 0x2,
    Send = 0x4,
    Status = 0x8
};
Q_DECLARE_FLAGS(NodeRoles, NodeRole)
Q_DECLARE_OPERATORS_FOR_FLAGS(NodeRoles)
inline constexpr NodeRoles allNodeRoles{NodeRole::Read, NodeRole::Build, NodeRole::Send,
                                        NodeRole::Status};
// Every role, in the order files, tables and messages list them.
inline constexpr std::array<NodeRole, 4> nodeRoleOrder{NodeRole::Read, NodeRole::Build,
                                                       NodeRole::Send, NodeRole::Status};
QString nodeRoleName(NodeRole role); // "read", "build", "send", "status"
QStringList nodeRoleNames(NodeRoles roles);

struct HttpHeader
{
    QByteArray name;
    QByteArray value;      // with ${NAME} expanded: a secret, never shown as is
    QString valueTemplate; // as written in the file, ${NAME} kept: what a save writes back
    bool operator==(const HttpHeader&) const = default;
};

struct NodeConfig
{
    QString name;
    QUrl url;            // with ${NAME} expanded: a secret, never shown as is
    QString urlTemplate; // as written in the file
    NodeRoles roles = allNodeRoles;
    QList<HttpHeader> headers;
    // Optional WebSocket endpoint for pushed heights and signatures (ws:// or wss://); a
    // secret like url. Empty: the node is polled only.
    QUrl wsUrl;
    QString wsUrlTemplate;
    QString caFile;              // PEM authorities trusted for this node (overrides the network's)
    bool cleartextHttp2 = false; // http:// spoken as HTTP/2 from the first byte
    bool operator==(const NodeConfig&) const = default;
};

// Lag thresholds when a network leaves warnLag/maxLag out of the file, in the chain's own height
// unit: the family's (chain::FamilyRules::defaultLagThresholds gives each family's reasons).
struct LagThresholds
{
    qint64 warnLag = 0;
    qint64 maxLag = 0;
};
LagThresholds defaultLagThresholds(ChainFamily family);

// How long a subscribed socket may push nothing before it counts as silent: `configured`, or
// without one the family's (chain::FamilyRules::defaultSilentPushMs).
int silentPushMs(int configured, ChainFamily family);

struct NetworkConfig
{
    QString name;
    ChainFamily family = ChainFamily::Solana;
    QString genesisHash;                              // Solana: the cluster's identity
    quint64 chainId = 0;                              // EVM: the chain's identity
    QString commitment = QStringLiteral("confirmed"); // Solana: processed|confirmed|finalized
    bool checkSyncing = false;                        // EVM: also ask eth_syncing in probes
    qint64 warnLag = 0; // label a node this far behind (loader: defaultLagThresholds)
    qint64 maxLag = 0;  // exclude it from build/send (and read)
    QString explorer;   // URL template with {id}
    QString caFile;     // PEM authorities trusted for its nodes, on top of the system's
    QList<NodeConfig> nodes;
    bool operator==(const NetworkConfig&) const = default;
};

struct ProbeConfig
{
    int intervalMs = 5000;
    int timeoutMs = 2000;
    int recoveryIntervalMs = 60000; // 0 switches the recovery scheduler off
    int probationProbes = 3;
    // A subscribed WebSocket that pushes no height for this long is silent: it counts against
    // its node and is opened again. 0: the family's default (silentPushMs()).
    int pushSilentMs = 0;
    // At most one agreement check (which block a node serves a safe margin below the reference)
    // per node this often, carried by a probe; 0 switches agreement checks off.
    int agreementIntervalMs = 30000;
    bool operator==(const ProbeConfig&) const = default;
};

struct Config
{
    QList<NetworkConfig> networks;
    ProbeConfig probe;
    int reconfigureGraceMs = 30000;
    AlertRules alerts;
    // The store (an SQLite file's absolute path or a postgresql:// URL without a password);
    // empty: the default. `--db` overrides it.
    QString db;
    // A desk on a store with a collector (`switchyard serve`) shows the collector's probe states
    // and probes nothing itself, unless this is on (recording/collectorfollower.h).
    bool probeFromThisDesk = false;
    // Environment variables that ${NAME} references expanded to when the file was loaded
    // (name -> value). Never saved; the values are secrets that SecretScrubber hides.
    QMap<QString, QString> usedVariables;
    bool operator==(const Config&) const = default;

    const NetworkConfig* network(const QString& name) const;
};

} // namespace switchyard
Q_DECLARE_METATYPE(switchyard::Config)
