#pragma once

#include "chain/codec/signedtransaction.h"
#include "tracking/statuslookup.h"
#include "tracking/trackedtransaction.h"
#include "tracking/txstate.h"

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <optional>

// The send gate (resources/docs/design.md, "Writes", rules 4, 5 and 8, and "The gate"): whether
// a transaction's stored bytes may go out, with the words and evidence of the decision, and the
// check that those bytes still are the tracked id.
namespace switchyard::tracking {

// Whether a send may go out at all in this state: never after Expired or Superseded (the bytes
// cannot land), nor once it has landed.
bool maySend(TxState state);

enum class Gate
{
    Open,          // nowhere on chain or in a pool and still valid: the bytes may go out again
    Landed,        // confirmed or finalized: nothing to send
    SeenByNetwork, // a node has it (processed, or in its pool): watch it, sending adds nothing
    SendInFlight,  // a send of it is under way: wait for its answer
    NoEvidence,    // no status node answered: nothing is decided, nothing is sent
    WatchOnly,     // no bytes are stored: it can be watched, never sent
    FailedOnChain, // landed with an error: the same bytes cannot land again
    Expired,       // its blockhash expired: only the sending system can sign a replacement
    Superseded,    // another transaction used its nonce: only the sender can decide what next
};

struct GateDecision
{
    Gate gate = Gate::NoEvidence;
    QString headline;     // one sentence for the person
    QStringList evidence; // what it rests on: nodes, heights, nonces, each a line

    bool maySend() const { return gate == Gate::Open; }
    // What a send this gate refuses says, wherever it is refused: "not sent: " and the headline.
    QString refusal() const { return QStringLiteral("not sent: ") + headline; }
    // The gate will not open again for this transaction, whatever a later lookup finds.
    bool isClosedForGood() const;
};

QString gateKey(Gate gate); // "open", "landed", "seen-by-network", ...

// Whether a confirmation may be started for `record`, one rule for every button that starts
// one; `reason` says why not in the gate's words (or, when it may, what a confirmation does),
// for a tooltip.
struct ConfirmOffer
{
    bool enabled = false;
    QString reason;
};

ConfirmOffer confirmOffer(const TrackedTransaction& record);

// The gate for `record` (its state after the lookup) given the tracker's lookup of it;
// `sendInFlight` says this process is sending it (the lookup says whether another one is).
GateDecision decideGate(const TrackedTransaction& record, const LookupReport& lookup,
                        bool sendInFlight);

// What a rebroadcast would send: the stored bytes, their id computed again, and whether they
// still verify as signed. A mismatch means the store was altered: nothing may be sent.
struct BytesCheck
{
    bool ok = false;
    QString trackedId;
    QString computedId; // empty when the bytes do not decode
    int byteCount = 0;
    QString error;                                        // why the bytes may not be sent
    std::optional<chain::DecodedTransaction> transaction; // the verified bytes, when ok
};

BytesCheck checkStoredBytes(const TrackedTransaction& record);

} // namespace switchyard::tracking

Q_DECLARE_METATYPE(switchyard::tracking::GateDecision)
