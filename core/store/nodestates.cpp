#include "nodestates.h"

#include "rpc/rpcreply.h"
#include "store/sqlvalues.h"

#include <QSqlError>
#include <QSqlQuery>

namespace switchyard::store {

namespace {

// The enum value whose key is `key`, among `last` + 1 values from 0.
template <typename Enum>
std::optional<Enum> fromKey(const QString& key, Enum last, QString (*keyOf)(Enum))
{
    for (int value = 0; value <= int(last); ++value) {
        if (keyOf(Enum(value)) == key)
            return Enum(value);
    }
    return std::nullopt;
}

// Bound as '' rather than NULL, as the NOT NULL text columns want: Qt binds a null QString as
// NULL.
QString textOrEmpty(const QString& text)
{
    return text.isNull() ? QString(QLatin1String("")) : text;
}

QVariant textOrNull(const std::optional<QString>& text)
{
    return text ? QVariant(*text) : QVariant();
}

} // namespace

WriteError storeNodeState(QSqlDatabase& db, const StoredNodeState& state)
{
    const NodeReport& report = state.report;
    const ReportedHealth& health = report.health;
    QSqlQuery query(db);
    query.prepare(QStringLiteral(
        "INSERT INTO node_states (network, node, state, height, lag, lag_band, latency_p50_ms, "
        "latency_p95_ms, error_rate, consecutive_failures, last_cause, last_error, tls_problem, "
        "disagreement, disagrees_with, protocol, push_state, probed_ms, collector) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (network, node) DO UPDATE SET state = excluded.state, "
        "height = excluded.height, lag = excluded.lag, lag_band = excluded.lag_band, "
        "latency_p50_ms = excluded.latency_p50_ms, latency_p95_ms = excluded.latency_p95_ms, "
        "error_rate = excluded.error_rate, consecutive_failures = excluded.consecutive_failures, "
        "last_cause = excluded.last_cause, last_error = excluded.last_error, "
        "tls_problem = excluded.tls_problem, disagreement = excluded.disagreement, "
        "disagrees_with = excluded.disagrees_with, protocol = excluded.protocol, "
        "push_state = excluded.push_state, probed_ms = excluded.probed_ms, "
        "collector = excluded.collector"));
    query.addBindValue(state.network);
    query.addBindValue(state.node);
    query.addBindValue(nodeStateKey(health.state));
    query.addBindValue(integerOrNull(health.height));
    query.addBindValue(integerOrNull(health.lag));
    query.addBindValue(lagBandKey(health.lagBand));
    query.addBindValue(integerOrNull(health.latencyP50Ms));
    query.addBindValue(integerOrNull(health.latencyP95Ms));
    query.addBindValue(health.errorRate);
    query.addBindValue(health.consecutiveFailures);
    query.addBindValue(textOrNull(health.lastFailureCause
                                      ? std::optional(failureCauseKey(*health.lastFailureCause))
                                      : std::nullopt));
    query.addBindValue(textOrEmpty(health.lastError));
    query.addBindValue(textOrNull(
        report.tlsProblem ? std::optional(tlsProblemName(*report.tlsProblem)) : std::nullopt));
    query.addBindValue(textOrEmpty(report.disagreement));
    query.addBindValue(textOrEmpty(report.disagreesWith));
    query.addBindValue(textOrEmpty(report.protocol));
    query.addBindValue(pushStateKey(report.push));
    query.addBindValue(state.probedMs);
    query.addBindValue(state.collector);
    if (!query.exec())
        return WriteError::fromSql(QStringLiteral("cannot store the probe state of %1 in %2")
                                       .arg(state.node, state.network),
                                   query.lastError());
    return {};
}

WriteError keepNodeStatesOf(QSqlDatabase& db, const QList<std::pair<QString, QString>>& configured)
{
    QSqlQuery rows(db);
    if (!rows.exec(QStringLiteral("SELECT network, node FROM node_states")))
        return WriteError::fromSql(QStringLiteral("cannot read the stored probe states"),
                                   rows.lastError());
    QList<std::pair<QString, QString>> gone;
    while (rows.next()) {
        std::pair<QString, QString> stored{rows.value(0).toString(), rows.value(1).toString()};
        if (!configured.contains(stored))
            gone.append(std::move(stored));
    }
    rows.finish();
    QSqlQuery remove(db);
    remove.prepare(QStringLiteral("DELETE FROM node_states WHERE network = ? AND node = ?"));
    for (const auto& [network, node] : std::as_const(gone)) {
        remove.addBindValue(network);
        remove.addBindValue(node);
        if (!remove.exec())
            return WriteError::fromSql(
                QStringLiteral("cannot remove the probe state of %1 in %2").arg(node, network),
                remove.lastError());
    }
    return {};
}

ReadResult<NodeStateRows> readNodeStates(const QSqlDatabase& db)
{
    ReadResult<NodeStateRows> result;
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral(
            "SELECT network, node, state, height, lag, lag_band, latency_p50_ms, latency_p95_ms, "
            "error_rate, consecutive_failures, last_cause, last_error, tls_problem, "
            "disagreement, disagrees_with, protocol, push_state, probed_ms, collector "
            "FROM node_states ORDER BY network, node"))) {
        result.error = QStringLiteral("cannot read the collector's probe states: ") +
                       query.lastError().text().simplified();
        return result;
    }
    while (query.next()) {
        StoredNodeState state;
        state.network = query.value(0).toString();
        state.node = query.value(1).toString();
        NodeReport& report = state.report;
        ReportedHealth& health = report.health;
        QStringList unknown;
        const auto word = [&](int column, auto last, auto keyOf, const char* what) {
            const QString key = query.value(column).toString();
            const auto value = fromKey(key, last, keyOf);
            if (!value)
                unknown << QStringLiteral("unknown %1 '%2'").arg(QLatin1String(what), key);
            return value;
        };
        health.state =
            word(2, NodeState::Quarantined, &nodeStateKey, "state").value_or(NodeState::NotProbed);
        health.height = optionalInteger(query.value(3));
        health.lag = optionalInteger(query.value(4));
        health.lagBand =
            word(5, LagBand::PastMax, &lagBandKey, "lag band").value_or(LagBand::Within);
        health.latencyP50Ms = optionalInteger(query.value(6));
        health.latencyP95Ms = optionalInteger(query.value(7));
        health.errorRate = query.value(8).toDouble();
        health.consecutiveFailures = query.value(9).toInt();
        if (!query.value(10).isNull())
            health.lastFailureCause = word(10, FailureCause::Diverged, &failureCauseKey, "cause");
        health.lastError = query.value(11).toString();
        if (!query.value(12).isNull())
            report.tlsProblem = word(12, TlsProblem::Other, &tlsProblemName, "TLS problem");
        report.disagreement = query.value(13).toString();
        report.disagreesWith = query.value(14).toString();
        report.protocol = query.value(15).toString();
        report.push =
            word(16, PushState::Subscribed, &pushStateKey, "push state").value_or(PushState::Off);
        state.probedMs = query.value(17).toLongLong();
        state.collector = query.value(18).toString();
        if (unknown.isEmpty())
            result.value.states.append(std::move(state));
        else
            result.value.unreadable.append(
                QStringLiteral("%1/%2: %3").arg(state.network, state.node, unknown.join(u", ")));
    }
    return result;
}

} // namespace switchyard::store
