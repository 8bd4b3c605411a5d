#pragma once

// A simulated cluster with its pool (poolfixture.h), a real store (an SQLite file in a
// temporary directory, or `storeLocation` when set: another file or a PostgreSQL database of
// tests/support), and a tracker over both: what the tracking tests share.

#include "chain/codec/base64.h"
#include "chain/codec/hex.h"
#include "poolfixture.h"
#include "sim/demosigner.h"
#include "sim/evmledger.h"
#include "sim/solanaledger.h"
#include "store/database.h"
#include "store/storewriter.h"
#include "tracking/sqltrackingstore.h"
#include "tracking/transactionimport.h"
#include "tracking/transactiontracker.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <qcorotask.h>

namespace switchyard::testing {

struct TrackingFixture
{
    TrackingFixture(ChainFamily family, QStringList nodeNames,
                    tracking::TrackerOptions options = {})
        : pools(family, nodeNames)
        , m_options(options)
    {}

    // Applies the configuration (after the test shaped roles and nodes), probes every node
    // once, and opens the store and the tracker.
    bool start()
    {
        pools.apply();
        pools.probeAll();
        if (!dir.isValid())
            return false;
        if (storeLocation.isEmpty())
            storeLocation = dir.filePath(QStringLiteral("store.db"));
        store::OpenResult opened = store::Database::open(storeLocation);
        if (!opened.ok()) {
            qWarning("%s", qPrintable(opened.error));
            return false;
        }
        database = std::move(opened.database);
        store::WriterOptions writerOptions;
        writerOptions.clock = &pools.clock;
        writer = std::make_unique<store::StoreWriter>(*database, writerOptions);
        trackingStore = std::make_unique<tracking::SqlTrackingStore>(writer.get());
        tracker = std::make_unique<tracking::TransactionTracker>(
            &pools.manager, trackingStore.get(), &pools.clock, m_options);
        return true;
    }

    void setRoles(const QString& node, NodeRoles roles)
    {
        for (NodeConfig& config : pools.network.nodes) {
            if (config.name == node)
                config.roles = roles;
        }
    }

    sim::SolanaLedger& solana() const { return *pools.cluster.solanaLedger(); }
    sim::EvmLedger& evm() const { return *pools.cluster.evmLedger(); }

    // A Solana transfer over a blockhash old enough for every commitment to know it, with
    // the lastValidBlockHeight the sender's getLatestBlockhash would have given.
    struct SignedSolana
    {
        QByteArray wire;
        QString signature;
        qint64 lastValidBlockHeight = 0;
    };
    SignedSolana signSolana(quint64 lamports, int key = 1) const
    {
        const qint64 height = pools.cluster.headBlockHeight() - 40;
        const QByteArray wire = sim::signSolanaTransfer(
            sim::demoKey(key), pools.cluster.blockhashAtHeight(height), lamports);
        const auto decoded = chain::solana::decodeTransaction(wire);
        return {wire, decoded ? decoded->id() : QString(),
                height + sim::SimulatedCluster::kBlockhashValidityBlocks};
    }

    QByteArray signEvm(quint64 nonce, quint64 value, int key = 1) const
    {
        return sim::signEip1559Transfer(sim::demoKey(key), pools.cluster.chainId(), nonce, value);
    }

    // Imports one JSON line as the sending system would hand it over, and tracks it.
    tracking::TrackedTransaction track(const QJsonObject& line)
    {
        const tracking::ImportResult imported = tracking::importTransactions(
            QString::fromUtf8(QJsonDocument(line).toJson(QJsonDocument::Compact)), {pools.network},
            {}, pools.clock.utcNow().toMSecsSinceEpoch());
        if (!imported.ok()) {
            qWarning("import: %s", qPrintable(imported.errors[0].text()));
            return {};
        }
        const tracking::TrackResult result =
            QCoro::waitFor(tracker->track({imported.transactions[0].record}));
        if (!result.error.isEmpty())
            qWarning("track: %s", qPrintable(result.error));
        return *tracker->transaction(imported.transactions[0].record.id);
    }

    tracking::TrackedTransaction trackSolana(const SignedSolana& signed_, bool withLastValid = true)
    {
        QJsonObject line{
            {QStringLiteral("network"), pools.network.name},
            {QStringLiteral("wireBase64"), chain::base64Encode(chain::asSpan(signed_.wire))},
            {QStringLiteral("signature"), signed_.signature}};
        if (withLastValid)
            line.insert(QStringLiteral("lastValidBlockHeight"), signed_.lastValidBlockHeight);
        return track(line);
    }

    tracking::TrackedTransaction trackEvm(const QByteArray& raw)
    {
        return track({{QStringLiteral("network"), pools.network.name},
                      {QStringLiteral("raw"), chain::hexEncode(raw)}});
    }

    tracking::TxState state(const QString& id) const { return tracker->transaction(id)->state; }
    tracking::PollReport poll() { return QCoro::waitFor(tracker->poll(pools.network.name)); }
    tracking::SendReport send(const QString& id) { return QCoro::waitFor(tracker->send(id)); }

    // The store as a reader sees it, on this thread's connection.
    QList<store::SendAttempt> storedAttempts(const QString& id) const
    {
        return database->attempts(id).value;
    }
    // The messages of the stored events of one kind ("confirmation", ...) about `id`.
    QStringList storedEvents(const QString& id, const QString& kind) const
    {
        QStringList messages;
        for (const store::StoredEvent& event : database->eventsForTransaction(id).value) {
            if (event.kind == kind)
                messages << event.message;
        }
        return messages;
    }
    QStringList storedSeverities(const QString& id, const QString& kind) const
    {
        QStringList severities;
        for (const store::StoredEvent& event : database->eventsForTransaction(id).value) {
            if (event.kind == kind)
                severities << severityKey(event.severity);
        }
        return severities;
    }
    std::optional<store::StoredTransaction> stored(const QString& id) const
    {
        return database->transaction(id).value;
    }

    int totalSends(const QString& id) const
    {
        int total = 0;
        for (const sim::SimulatedNode* node : pools.cluster.nodes())
            total += node->sendCount(id);
        return total;
    }

    PoolFixture pools;
    QTemporaryDir dir;
    QString storeLocation; // what start() opens; dir's store.db unless set before
    std::unique_ptr<store::Database> database;
    std::unique_ptr<store::StoreWriter> writer;
    std::unique_ptr<tracking::SqlTrackingStore> trackingStore;
    std::unique_ptr<tracking::TransactionTracker> tracker;

private:
    tracking::TrackerOptions m_options;
};

} // namespace switchyard::testing
