#include "schema.h"

namespace switchyard::store {

namespace {

QList<Migration> buildMigrations()
{
    QList<Migration> list;

    list.append(Migration{
        1,
        QStringLiteral("incident timeline"),
        {
            QStringLiteral("CREATE TABLE schema_version ("
                           "version INTEGER PRIMARY KEY, "
                           "applied_ms BIGINT NOT NULL)"),
            // The timeline reader is written against exactly these columns.
            QStringLiteral("CREATE TABLE events ("
                           "id ${ROW_ID}, "
                           "time_ms BIGINT NOT NULL, "
                           "severity INTEGER NOT NULL, "
                           "kind TEXT NOT NULL, "
                           "network TEXT NOT NULL DEFAULT '', "
                           "node TEXT NOT NULL DEFAULT '', "
                           "method TEXT NOT NULL DEFAULT '', "
                           "tx_id TEXT NOT NULL DEFAULT '', "
                           "height BIGINT, "
                           "message TEXT NOT NULL DEFAULT '')"),
            QStringLiteral("CREATE INDEX events_time ON events (time_ms, id)"),
            QStringLiteral("CREATE INDEX events_tx ON events (tx_id)"),
            QStringLiteral("CREATE INDEX events_network_time ON events (network, time_ms)"),
            QStringLiteral("CREATE INDEX events_node_time ON events (node, time_ms)"),
        },
    });

    list.append(Migration{
        2,
        QStringLiteral("tracked transactions and send attempts"),
        {
            // wire is NULL for a watch-only record (no signed bytes: never rebroadcast).
            // Solana fills recent_blockhash/last_valid_block_height, EVM sender/nonce.
            QStringLiteral("CREATE TABLE transactions ("
                           "id TEXT PRIMARY KEY, "
                           "network TEXT NOT NULL, "
                           "family TEXT NOT NULL CHECK (family IN ('solana', 'evm')), "
                           "intent_id TEXT, "
                           "wire ${BYTES}, "
                           "recent_blockhash TEXT, "
                           "last_valid_block_height BIGINT, "
                           "sender TEXT, "
                           "nonce BIGINT, "
                           "state TEXT NOT NULL, "
                           "state_since_ms BIGINT NOT NULL, "
                           "created_ms BIGINT NOT NULL, "
                           "last_node TEXT NOT NULL DEFAULT '', "
                           "last_height BIGINT, "
                           "first_sent_ms BIGINT, "
                           "confirmed_ms BIGINT, "
                           "confirmed_height BIGINT, "
                           "finalized_ms BIGINT, "
                           "error TEXT NOT NULL DEFAULT '')"),
            QStringLiteral("CREATE INDEX transactions_intent ON transactions (intent_id)"),
            QStringLiteral("CREATE INDEX transactions_network_state "
                           "ON transactions (network, state)"),
            QStringLiteral("CREATE TABLE send_attempts ("
                           "id ${ROW_ID}, "
                           "tx_id TEXT NOT NULL REFERENCES transactions (id) ON DELETE CASCADE, "
                           "time_ms BIGINT NOT NULL, "
                           "node TEXT NOT NULL, "
                           "outcome TEXT NOT NULL, "
                           "detail TEXT NOT NULL DEFAULT '', "
                           "height BIGINT)"),
            QStringLiteral("CREATE INDEX send_attempts_tx ON send_attempts (tx_id, time_ms)"),
        },
    });

    list.append(Migration{
        3,
        QStringLiteral("probe samples and failover counters per minute"),
        {
            // One row per node per minute; `minute` is the ms time of the minute's start.
            QStringLiteral("CREATE TABLE probe_samples ("
                           "network TEXT NOT NULL, "
                           "node TEXT NOT NULL, "
                           "minute BIGINT NOT NULL, "
                           "samples INTEGER NOT NULL, "
                           "failures INTEGER NOT NULL, "
                           "latency_p50_ms BIGINT, "
                           "latency_p95_ms BIGINT, "
                           "height BIGINT, "
                           "lag BIGINT, "
                           "PRIMARY KEY (network, node, minute))"),
            QStringLiteral("CREATE INDEX probe_samples_minute ON probe_samples (minute)"),
            QStringLiteral("CREATE TABLE failover_counts ("
                           "network TEXT NOT NULL, "
                           "method TEXT NOT NULL, "
                           "minute BIGINT NOT NULL, "
                           "cause TEXT NOT NULL, "
                           "count BIGINT NOT NULL, "
                           "PRIMARY KEY (network, method, minute, cause))"),
            QStringLiteral("CREATE INDEX failover_counts_minute ON failover_counts (minute)"),
        },
    });

    list.append(Migration{
        4,
        QStringLiteral("open and recently settled tracked transactions"),
        {
            // The tracker is restored at every start from the records that can still change
            // and those that settled lately; settled rows pile up, so each part has its own
            // partial index. The state list is store::settledTransactionStates(), and the
            // reads repeat it word for word (SQLite uses a partial index only then).
            QStringLiteral("CREATE INDEX transactions_open ON transactions (created_ms) "
                           "WHERE state NOT IN ('finalized', 'execution-failed', 'expired', "
                           "'superseded')"),
            QStringLiteral("CREATE INDEX transactions_settled ON transactions (state_since_ms) "
                           "WHERE state IN ('finalized', 'execution-failed', 'expired', "
                           "'superseded')"),
        },
    });

    list.append(Migration{
        5,
        QStringLiteral("the nodes that proved a landing and its finality"),
        {
            // The confirmation wizard and the board show which node proved each step; without
            // these a restart forgot it.
            QStringLiteral("ALTER TABLE transactions ADD COLUMN confirmed_by TEXT"),
            QStringLiteral("ALTER TABLE transactions ADD COLUMN finalized_by TEXT"),
        },
    });

    list.append(Migration{
        6,
        QStringLiteral("who holds a send in flight"),
        {
            // A send is claimed by storing its attempt as "sending" with the process that sends
            // it; another process that finds the claim open can tell whether that one still
            // runs (resources/docs/design.md, "Across processes").
            QStringLiteral("ALTER TABLE send_attempts ADD COLUMN holder TEXT"),
        },
    });

    list.append(Migration{
        7,
        QStringLiteral("the collector lease"),
        {
            // One process per store probes and records (recording/collectorlease.h): the one
            // named here while it renews the lease and runs.
            QStringLiteral("CREATE TABLE collector_lease ("
                           "name TEXT PRIMARY KEY, "
                           "holder TEXT NOT NULL, "
                           "host TEXT NOT NULL, "
                           "since_ms BIGINT NOT NULL, "
                           "renewed_ms BIGINT NOT NULL)"),
        },
    });

    list.append(Migration{
        8,
        QStringLiteral("nodes quarantined by an operator"),
        {
            // One row per node while its quarantine holds, obeyed by every process on the store;
            // a release deletes the row, and the timeline keeps both as events
            // (store/quarantines.h).
            QStringLiteral("CREATE TABLE node_quarantines ("
                           "network TEXT NOT NULL, "
                           "node TEXT NOT NULL, "
                           "reason TEXT NOT NULL, "
                           "quarantined_by TEXT NOT NULL, "
                           "since_ms BIGINT NOT NULL, "
                           "PRIMARY KEY (network, node))"),
        },
    });

    list.append(Migration{
        9,
        QStringLiteral("open and settled indexes that a state change keeps up cheaply"),
        {
            // Version 4 wrote their conditions as state [NOT] IN (...): SQLite evaluates such a
            // list afresh for every row it writes, which made storing a poll round's 5,000
            // state changes some 2.5 times slower (bench/tracking). The same conditions as
            // plain comparisons, which the reads repeat word for word (store/records.cpp).
            QStringLiteral("DROP INDEX transactions_open"),
            QStringLiteral("CREATE INDEX transactions_open ON transactions (created_ms) "
                           "WHERE state <> 'finalized' AND state <> 'execution-failed' AND "
                           "state <> 'expired' AND state <> 'superseded'"),
            QStringLiteral("DROP INDEX transactions_settled"),
            QStringLiteral("CREATE INDEX transactions_settled ON transactions (state_since_ms) "
                           "WHERE (state = 'finalized' OR state = 'execution-failed' OR "
                           "state = 'expired' OR state = 'superseded')"),
        },
    });

    list.append(Migration{
        10,
        QStringLiteral("the collector's latest probe state of each node"),
        {
            // One row per configured node, upserted at each of its probes by the process that
            // holds the collector lease (recording/nodestaterecorder.h); a desk on the store
            // shows these instead of probing (recording/collectorfollower.h). Enums are stored
            // as their key words; probed_ms is UTC.
            QStringLiteral("CREATE TABLE node_states ("
                           "network TEXT NOT NULL, "
                           "node TEXT NOT NULL, "
                           "state TEXT NOT NULL, "
                           "height BIGINT, "
                           "lag BIGINT, "
                           "lag_band TEXT NOT NULL, "
                           "latency_p50_ms BIGINT, "
                           "latency_p95_ms BIGINT, "
                           "error_rate DOUBLE PRECISION NOT NULL, "
                           "consecutive_failures INTEGER NOT NULL, "
                           "last_cause TEXT, "
                           "last_error TEXT NOT NULL DEFAULT '', "
                           "tls_problem TEXT, "
                           "disagreement TEXT NOT NULL DEFAULT '', "
                           "disagrees_with TEXT NOT NULL DEFAULT '', "
                           "protocol TEXT NOT NULL DEFAULT '', "
                           "push_state TEXT NOT NULL, "
                           "probed_ms BIGINT NOT NULL, "
                           "collector TEXT NOT NULL, "
                           "PRIMARY KEY (network, node))"),
        },
    });

    list.append(Migration{
        11,
        QStringLiteral("indexes that a poll round's state changes keep up cheaply"),
        {
            // Each of a poll round's state changes adds an event whose id lands at a random
            // place in events_tx: with the whole id (88 characters for a Solana signature) as
            // the key, a round dirtied a page of it per event, and the cost of a round's commit
            // grew with the store (bench/store, a million events: 245 ms on SQLite, 144 ms with
            // this key). Twelve characters tell ids apart as well for a lookup, which compares
            // the whole id after (store::eventsOfTransactionCondition), in a quarter of the
            // pages.
            QStringLiteral("DROP INDEX events_tx"),
            QStringLiteral("CREATE INDEX events_tx ON events (substr(tx_id, 1, 12))"),
            // No read asks for a network's transactions in one state; each state change moved
            // the row's entry in it.
            QStringLiteral("DROP INDEX transactions_network_state"),
        },
    });

    return list;
}

} // namespace

const QList<Migration>& migrations()
{
    static const QList<Migration> list = buildMigrations();
    return list;
}

QString dialectSql(const QString& sql, Dialect dialect)
{
    QString out = sql;
    switch (dialect) {
    case Dialect::Sqlite:
        // INTEGER PRIMARY KEY is SQLite's rowid: a new row without an id gets max + 1.
        out.replace(QLatin1String("${ROW_ID}"), QLatin1String("INTEGER PRIMARY KEY"));
        out.replace(QLatin1String("${BYTES}"), QLatin1String("BLOB"));
        break;
    case Dialect::Postgres:
        out.replace(QLatin1String("${ROW_ID}"),
                    QLatin1String("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"));
        out.replace(QLatin1String("${BYTES}"), QLatin1String("BYTEA"));
        break;
    }
    return out;
}

} // namespace switchyard::store
