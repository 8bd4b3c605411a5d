#include "sendgate.h"

#include "chain/familyrules.h"
#include "tracking/expiry.h"

namespace switchyard::tracking {

bool maySend(TxState state)
{
    return isPending(state);
}

namespace {

QString heightUnit(const TrackedTransaction& record)
{
    return chain::familyRules(record.family).heightUnit();
}

QString at(const QString& node, std::optional<qint64> height, const QString& unit)
{
    if (node.isEmpty())
        return {};
    return height ? QStringLiteral(" (%1, %2 %3)").arg(node, unit).arg(*height)
                  : QStringLiteral(" (%1)").arg(node);
}

// What the record itself proves about a landing or a failure.
QStringList recordEvidence(const TrackedTransaction& record)
{
    QStringList lines;
    const QString unit = heightUnit(record);
    if (record.confirmedHeight)
        lines.append(QStringLiteral("landed in %1 %2%3")
                         .arg(unit)
                         .arg(*record.confirmedHeight)
                         .arg(record.confirmedBy.isEmpty()
                                  ? QString()
                                  : QStringLiteral(", proved by ") + record.confirmedBy));
    if (!record.finalizedBy.isEmpty())
        lines.append(QStringLiteral("finalized, proved by %1").arg(record.finalizedBy));
    if (!record.error.isEmpty())
        lines.append(record.error);
    if (lines.isEmpty() && !record.lastNode.isEmpty())
        lines.append(
            QStringLiteral("%1 since the answer of %2")
                .arg(txStateWord(record.state), record.lastNode + at({}, record.lastHeight, unit)));
    return lines;
}

QString solanaHeightLine(const TrackedTransaction& record, const LookupReport& lookup)
{
    if (!lookup.blockHeight)
        return QStringLiteral("no status node gave the block height");
    const QString node = QStringLiteral("%1%2").arg(
        lookup.blockHeightNode,
        lookup.blockHeightNodeHealthy ? QString() : QStringLiteral(", not healthy"));
    if (!record.lastValidBlockHeight)
        return QStringLiteral("block height %1 on %2; no lastValidBlockHeight stored")
            .arg(*lookup.blockHeight)
            .arg(node);
    const qint64 left = *blocksLeft(record, lookup.blockHeight);
    return QStringLiteral("block height %1 on %2, lastValidBlockHeight %3: %4")
        .arg(*lookup.blockHeight)
        .arg(node)
        .arg(*record.lastValidBlockHeight)
        .arg(left >= 0 ? QStringLiteral("%1 blocks left").arg(left)
                       : QStringLiteral("%1 blocks past it").arg(-left));
}

QString nonceLine(const TrackedTransaction& record, const LookupReport& lookup)
{
    if (!record.nonce)
        return QStringLiteral("the transaction's nonce is not known");
    if (!lookup.minedNonce)
        return QStringLiteral("no node gave %1's mined nonce (this transaction's is %2)")
            .arg(record.sender)
            .arg(*record.nonce);
    return QStringLiteral("%1's mined nonce is %2 on %3; this transaction's is %4")
        .arg(record.sender)
        .arg(*lookup.minedNonce)
        .arg(lookup.node)
        .arg(*record.nonce);
}

// The words of an open gate follow what happened: bytes Switchyard never sent are sent, not
// sent "again".
QString notSentYet(const TrackedTransaction& record)
{
    return record.sentBefore() ? QString() : QStringLiteral(" (not sent yet by Switchyard)");
}

QString again(const TrackedTransaction& record)
{
    return record.sentBefore() ? QStringLiteral(" again") : QString();
}

GateDecision gateFor(Gate gate, QString headline, QStringList evidence)
{
    return {gate, std::move(headline), std::move(evidence)};
}

} // namespace

bool GateDecision::isClosedForGood() const
{
    switch (gate) {
    case Gate::Landed:
    case Gate::FailedOnChain:
    case Gate::Expired:
    case Gate::Superseded:
        return true;
    case Gate::Open:
    case Gate::SeenByNetwork:
    case Gate::SendInFlight:
    case Gate::NoEvidence:
    case Gate::WatchOnly:
        return false;
    }
    Q_UNREACHABLE();
}

QString gateKey(Gate gate)
{
    switch (gate) {
    case Gate::Open:
        return QStringLiteral("open");
    case Gate::Landed:
        return QStringLiteral("landed");
    case Gate::SeenByNetwork:
        return QStringLiteral("seen-by-network");
    case Gate::SendInFlight:
        return QStringLiteral("send-in-flight");
    case Gate::NoEvidence:
        return QStringLiteral("no-evidence");
    case Gate::WatchOnly:
        return QStringLiteral("watch-only");
    case Gate::FailedOnChain:
        return QStringLiteral("failed-on-chain");
    case Gate::Expired:
        return QStringLiteral("expired");
    case Gate::Superseded:
        return QStringLiteral("superseded");
    }
    Q_UNREACHABLE();
}

ConfirmOffer confirmOffer(const TrackedTransaction& record)
{
    // Only a state no lookup can change closes the offer: a confirmed transaction's gate is
    // closed as well, yet a confirmation still looks whether it was finalized or rolled back.
    if (isTerminal(record.state))
        return {false, decideGate(record, LookupReport{}, false).headline};
    return {true, record.isWatchOnly()
                      ? QStringLiteral("Look its status up on every status node (watched "
                                       "without its bytes: never sent)")
                      : QStringLiteral("Look its status up on every status node, then, only if "
                                       "safe and after your yes, send the identical bytes")};
}

GateDecision decideGate(const TrackedTransaction& record, const LookupReport& lookup,
                        bool sendInFlight)
{
    const QString unit = heightUnit(record);
    switch (record.state) {
    case TxState::Confirmed:
    case TxState::Finalized:
        return gateFor(Gate::Landed,
                       QStringLiteral("It landed (%1): there is nothing to send.")
                           .arg(txStateWord(record.state).toLower()),
                       recordEvidence(record));
    case TxState::ExecutionFailed:
        return gateFor(Gate::FailedOnChain,
                       QStringLiteral("It landed with an error. The same bytes cannot land "
                                      "again: only the sending system can decide what to send "
                                      "instead."),
                       recordEvidence(record));
    case TxState::Expired: {
        QStringList evidence = recordEvidence(record);
        if (lookup.blockHeight)
            evidence.prepend(solanaHeightLine(record, lookup));
        return gateFor(Gate::Expired,
                       QStringLiteral("Expired: its blockhash is past lastValidBlockHeight and "
                                      "no node has it, so these bytes can never land. Only the "
                                      "sending system can sign a replacement (with a new "
                                      "blockhash); Switchyard never signs."),
                       evidence);
    }
    case TxState::Superseded: {
        QStringList evidence = recordEvidence(record);
        if (lookup.minedNonce)
            evidence.prepend(nonceLine(record, lookup));
        return gateFor(
            Gate::Superseded,
            QStringLiteral("Superseded: another transaction of %1 used nonce %2, so "
                           "these bytes can never be mined. Only the sending system "
                           "can decide whether a new transaction is needed.")
                .arg(record.sender, record.nonce ? QString::number(*record.nonce) : QString()),
            evidence);
    }
    case TxState::Imported:
    case TxState::Submitted:
    case TxState::TransportUnknown:
        break;
    }

    if (!lookup.storeError.isEmpty())
        return gateFor(Gate::NoEvidence,
                       QStringLiteral("The store failed, so nothing is decided and nothing is "
                                      "sent. It stays pending."),
                       {lookup.storeError});
    if (sendInFlight || !lookup.sendInFlight.isEmpty())
        return gateFor(Gate::SendInFlight,
                       QStringLiteral("A send of these bytes is under way: wait for its answer "
                                      "before sending again."),
                       lookup.sendInFlight.isEmpty()
                           ? QStringList()
                           : QStringList{QStringLiteral("sent by %1").arg(lookup.sendInFlight)});
    if (lookup.noEligibleNode || !lookup.answered) {
        QStringList evidence;
        if (!lookup.message.isEmpty())
            evidence.append(lookup.message);
        evidence.append(lookup.noEligibleNode
                            ? QStringLiteral("no status node is eligible to be asked")
                            : QStringLiteral("no status node answered about it"));
        return gateFor(Gate::NoEvidence,
                       QStringLiteral("No node could say where it stands, so nothing is "
                                      "decided and nothing is sent. It stays pending."),
                       evidence);
    }
    if (lookup.seen.level != StatusObservation::Level::NotFound) {
        const QString where =
            lookup.inPool ? QStringLiteral("in the pool of %1").arg(lookup.node)
                          : QStringLiteral("processed%1").arg(at(lookup.node, lookup.height, unit));
        return gateFor(Gate::SeenByNetwork,
                       QStringLiteral("The network has it (%1): watch it land, sending again "
                                      "adds nothing.")
                           .arg(where),
                       {QStringLiteral("%1%2").arg(lookup.inPool ? QStringLiteral("in pool")
                                                                 : QStringLiteral("processed"),
                                                   at(lookup.node, lookup.height, unit))});
    }

    QStringList evidence{QStringLiteral("not found%1").arg(at(lookup.node, lookup.height, unit))};
    if (record.isWatchOnly())
        return gateFor(Gate::WatchOnly,
                       QStringLiteral("No node has it, and it is watched without its bytes: it "
                                      "can be looked up, never sent. Only the sending system "
                                      "holds the bytes."),
                       evidence);

    if (chain::familyRules(record.family).expiresAtBlockHeight()) {
        evidence.append(solanaHeightLine(record, lookup));
        switch (lookup.expiry.value_or(ExpiryVerdict::NoEvidence)) {
        case ExpiryVerdict::StillValid:
            return gateFor(Gate::Open,
                           QStringLiteral("No node has it%1 and its blockhash is still valid: "
                                          "the identical bytes may be sent%2.")
                               .arg(notSentYet(record), again(record)),
                           evidence);
        case ExpiryVerdict::Undecidable:
            evidence.append(QStringLiteral(
                "expiry cannot be decided without lastValidBlockHeight: if the blockhash has "
                "expired, nodes refuse the bytes and nothing lands"));
            return gateFor(Gate::Open,
                           QStringLiteral("No node has it%1. Its expiry cannot be decided; the "
                                          "identical bytes may be sent%2 (the same signature "
                                          "can land at most once).")
                               .arg(notSentYet(record), again(record)),
                           evidence);
        case ExpiryVerdict::Found:
            return gateFor(Gate::SeenByNetwork,
                           QStringLiteral("A history search found it: watch it, sending again "
                                          "adds nothing."),
                           evidence);
        case ExpiryVerdict::NoEvidence:
        case ExpiryVerdict::NeedFinalLookup:
        case ExpiryVerdict::Expired: // the record would already say Expired
            return gateFor(Gate::NoEvidence,
                           QStringLiteral("Whether its blockhash is still valid could not be "
                                          "decided (no healthy node's height, or the final "
                                          "history lookup did not answer). Nothing is sent; "
                                          "ask again."),
                           evidence);
        }
        Q_UNREACHABLE();
    }

    evidence.append(nonceLine(record, lookup));
    switch (lookup.supersession.value_or(SupersessionVerdict::Unknown)) {
    case SupersessionVerdict::NonceOpen:
        return gateFor(Gate::Open,
                       QStringLiteral("No node has it%1 and its nonce is still open: the "
                                      "identical bytes may be sent%2.")
                           .arg(notSentYet(record), again(record)),
                       evidence);
    case SupersessionVerdict::Landed:
        return gateFor(Gate::SeenByNetwork,
                       QStringLiteral("It has a receipt: watch it, sending again adds nothing."),
                       evidence);
    case SupersessionVerdict::Unknown:
    case SupersessionVerdict::Superseded: // the record would already say Superseded
        return gateFor(Gate::NoEvidence,
                       QStringLiteral("Whether its nonce is still open could not be decided. "
                                      "Nothing is sent; ask again."),
                       evidence);
    }
    Q_UNREACHABLE();
}

BytesCheck checkStoredBytes(const TrackedTransaction& record)
{
    BytesCheck check;
    check.trackedId = record.id;
    if (!record.wire) {
        check.error = QStringLiteral("no bytes are stored for %1 (watched only)").arg(record.id);
        return check;
    }
    check.byteCount = int(record.wire->size());
    auto decoded = chain::decodeSignedTransaction(record.family, *record.wire);
    if (!decoded.ok()) {
        check.error =
            QStringLiteral("the stored bytes do not check out: %1").arg(decoded.error().message);
        return check;
    }
    check.computedId = decoded->id;
    const auto verified =
        chain::verifyDecodedTransaction(std::move(decoded).value(), record.id, record.sender);
    if (!verified.ok()) {
        check.error =
            QStringLiteral("the stored bytes do not check out: %1").arg(verified.error().message);
        return check;
    }
    check.ok = true;
    check.transaction = verified.value();
    return check;
}

} // namespace switchyard::tracking
