#pragma once

#include "chain/family.h"
#include "lookup/lookupanswer.h"
#include "lookup/searchclassifier.h"

#include <QDeadlineTimer>
#include <QList>
#include <QObject>
#include <memory>
#include <optional>
#include <qcorotask.h>

namespace switchyard {

class NetworkPool;

// A transaction id to look up live.
struct LookupQuery
{
    ChainFamily family = ChainFamily::Solana;
    QString id; // Solana: the signature (base58); EVM: 0x + 64 lower-case hex digits
};

// The query for a search that names a transaction id; nullopt for anything else.
std::optional<LookupQuery> lookupQueryFor(const SearchClassification& search);

// Asks one node directly (not routed, no other node tried) with the network's timeout, or less
// when `deadline` comes sooner:
// Solana getSignatureStatuses([id], {searchTransactionHistory: true}); EVM one batch of
// eth_getTransactionReceipt and eth_blockNumber (the view the answer speaks for), then, when
// the receipt is null, eth_getTransactionByHash (in the node's pool, or unknown). The answer
// counts in the node's health like any call.
QCoro::Task<LookupAnswer>
askNode(std::shared_ptr<NetworkPool> pool, int index, LookupQuery query,
        QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever));

// The status question, put to every `status` node of every network of the query's family at
// once. Networks without an eligible status node answer NoNodeAvailable; status nodes the
// pool keeps out (unhealthy, lagging past maxLag while others serve, cooling down) answer
// NotAsked. Those come first, then each node's answer as soon as it arrives.
class LiveLookup : public QObject
{
    Q_OBJECT
public:
    explicit LiveLookup(QObject* parent = nullptr);
    ~LiveLookup() override;

    // Emits answered() per answer as it comes, then finished(); resolves with every answer in
    // the order they came, by `deadline` at the latest. Safe to destroy the object while it
    // runs (no more signals).
    QCoro::Task<QList<LookupAnswer>>
    run(QList<std::shared_ptr<NetworkPool>> pools, LookupQuery query,
        QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever));

Q_SIGNALS:
    void answered(const switchyard::LookupAnswer& answer);
    void finished();
};

// The collected form, for the command line.
QCoro::Task<QList<LookupAnswer>> lookUpEverywhere(QList<std::shared_ptr<NetworkPool>> pools,
                                                  LookupQuery query);

} // namespace switchyard

Q_DECLARE_METATYPE(switchyard::LookupAnswer)
