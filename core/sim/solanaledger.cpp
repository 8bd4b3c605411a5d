#include "solanaledger.h"

#include "chain/codec/base58.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"

#include <QJsonArray>
#include <QJsonObject>

namespace switchyard::sim {

namespace {

constexpr int kSendTransactionPreflightFailure = -32002;
constexpr int kSignatureVerificationFailure = -32003;

// The cluster remembers the hashes of this many recent blocks when deciding whether a
// transaction can land; older ones are as good as unknown (they have expired anyway).
constexpr qint64 kRememberedBlockhashes = 2 * SimulatedCluster::kBlockhashValidityBlocks;

// Solana's -32002: preflight simulation failed, with the TransactionError in data.err.
MethodError preflightFailure(const QString& message, const QJsonValue& err)
{
    return {kSendTransactionPreflightFailure,
            QStringLiteral("Transaction simulation failed: ") + message,
            QJsonObject{{QStringLiteral("err"), err},
                        {QStringLiteral("logs"), QJsonArray()},
                        {QStringLiteral("accounts"), QJsonValue::Null},
                        {QStringLiteral("unitsConsumed"), 0},
                        {QStringLiteral("returnData"), QJsonValue::Null},
                        {QStringLiteral("innerInstructions"), QJsonValue::Null}}};
}

} // namespace

QJsonValue solanaInstructionError()
{
    return QJsonObject{{QStringLiteral("InstructionError"),
                        QJsonArray{0, QJsonObject{{QStringLiteral("Custom"), 1}}}}};
}

qint64 SolanaTransactionRecord::lastValidBlockHeight() const
{
    return blockhashHeight ? *blockhashHeight + SimulatedCluster::kBlockhashValidityBlocks : -1;
}

SolanaLedger::SolanaLedger(SimulatedCluster* cluster)
    : m_cluster(cluster)
{}

void SolanaLedger::setLandingDelaySlots(int delay)
{
    m_landingDelaySlots = qMax(0, delay);
}

void SolanaLedger::setScriptedOutcome(const QString& signature, ScriptedOutcome outcome)
{
    m_scripted.insert(signature, outcome);
}

bool SolanaLedger::acceptBlockhash(const QString& hash, qint64 height)
{
    const chain::DecodeResult<QByteArray> bytes = chain::base58Decode(hash);
    if (!bytes || bytes->size() != chain::solana::kKeySize || height < 0)
        return false;
    m_acceptedBlockhashes.insert(*bytes, height);
    return true;
}

std::optional<qint64> SolanaLedger::blockhashHeightAt(const SimulatedNode& node,
                                                      const QByteArray& hash, qint64 height) const
{
    const qint64 oldest = height - SimulatedCluster::kBlockhashValidityBlocks;
    if (const auto accepted = m_acceptedBlockhashes.constFind(hash);
        accepted != m_acceptedBlockhashes.cend()) {
        if (*accepted <= height && *accepted >= oldest)
            return *accepted;
        return std::nullopt;
    }
    const QString text = chain::base58Encode(hash);
    for (qint64 h = height; h >= 0 && h >= oldest; --h) {
        if (node.blockhashAtHeight(h) == text)
            return h;
    }
    return std::nullopt;
}

std::optional<qint64> SolanaLedger::clusterBlockhashHeight(const QByteArray& hash) const
{
    if (const auto accepted = m_acceptedBlockhashes.constFind(hash);
        accepted != m_acceptedBlockhashes.cend())
        return *accepted;
    const QString text = chain::base58Encode(hash);
    const qint64 top = m_cluster->headBlockHeight();
    for (qint64 h = top; h >= 0 && h >= top - kRememberedBlockhashes; --h) {
        if (m_cluster->blockhashAtHeight(h) == text)
            return h;
    }
    return std::nullopt;
}

void SolanaLedger::planLanding(SolanaTransactionRecord& record) const
{
    record.landingSlot.reset();
    if (!record.blockhashHeight) {
        record.noLanding = SolanaNoLanding::UnknownBlockhash;
        return;
    }
    qint64 slot = m_cluster->head() + m_landingDelaySlots;
    while (m_cluster->isSkippedSlot(slot))
        ++slot;
    const qint64 height = m_cluster->blockHeightAtSlot(slot);
    if (height < *record.blockhashHeight) { // a hash accepted ahead of the chain
        record.noLanding = SolanaNoLanding::UnknownBlockhash;
        return;
    }
    if (height > record.lastValidBlockHeight()) {
        record.noLanding = SolanaNoLanding::Expired;
        return;
    }
    record.landingSlot = slot;
    record.noLanding = SolanaNoLanding::None;
}

MethodResult SolanaLedger::send(SimulatedNode& node, const QByteArray& wire,
                                const chain::solana::Transaction& transaction,
                                const SolanaSendOptions& options)
{
    const QString signature = transaction.id();
    node.countSend(signature);
    const bool signaturesValid = chain::solana::allSignaturesValid(transaction);
    const ScriptedOutcome outcome = m_scripted.value(signature, ScriptedOutcome::Lands);

    if (!options.skipPreflight) {
        if (!signaturesValid) {
            return MethodError{kSignatureVerificationFailure,
                               QStringLiteral("Transaction signature verification failure"),
                               QJsonValue::Undefined};
        }
        const qint64 behind = node.slotsBehind();
        if (behind > m_cluster->healthSlotDistance()) {
            return MethodError{rpccode::NodeUnhealthy,
                               QStringLiteral("Node is behind by %1 slots").arg(behind),
                               QJsonObject{{QStringLiteral("numSlotsBehind"), behind}}};
        }
        const qint64 preflightSlot = node.slot(options.preflightCommitment);
        const qint64 preflightHeight = m_cluster->blockHeightAtSlot(preflightSlot);
        if (!blockhashHeightAt(node, transaction.recentBlockhash, preflightHeight))
            return preflightFailure(QStringLiteral("Blockhash not found"),
                                    QStringLiteral("BlockhashNotFound"));
        if (landedSlot(signature, preflightSlot))
            return preflightFailure(QStringLiteral("This transaction has already been processed"),
                                    QStringLiteral("AlreadyProcessed"));
        if (outcome == ScriptedOutcome::FailsOnExecution)
            return preflightFailure(
                QStringLiteral("Error processing Instruction 0: custom program error: 0x1"),
                solanaInstructionError());
    }

    auto existing = m_records.find(signature);
    if (existing == m_records.end()) {
        SolanaTransactionRecord record;
        record.signature = signature;
        record.wire = wire;
        record.transaction = transaction;
        record.firstSeenSlot = m_cluster->head();
        record.blockhashHeight = clusterBlockhashHeight(transaction.recentBlockhash);
        if (outcome == ScriptedOutcome::FailsOnExecution)
            record.executionError = solanaInstructionError();
        if (!signaturesValid)
            record.noLanding = SolanaNoLanding::BadSignature;
        else if (outcome == ScriptedOutcome::NeverLands)
            record.noLanding = SolanaNoLanding::Scripted;
        else
            planLanding(record);
        m_records.insert(signature, record);
        m_order.append(signature);
    } else if (existing->noLanding == SolanaNoLanding::Dropped && signaturesValid &&
               existing->wire == wire) {
        planLanding(*existing); // the same bytes again: back in the network
    }
    return QJsonValue(signature);
}

bool SolanaLedger::dropPending(const QString& signature)
{
    auto record = m_records.find(signature);
    if (record == m_records.end() || !record->landingSlot ||
        *record->landingSlot <= m_cluster->head())
        return false;
    record->landingSlot.reset();
    record->noLanding = SolanaNoLanding::Dropped;
    return true;
}

const SolanaTransactionRecord* SolanaLedger::find(const QString& signature) const
{
    const auto record = m_records.constFind(signature);
    return record == m_records.cend() ? nullptr : &*record;
}

std::optional<qint64> SolanaLedger::landedSlot(const QString& signature, qint64 slot) const
{
    const SolanaTransactionRecord* record = find(signature);
    if (!record || !record->landingSlot || *record->landingSlot > slot ||
        *record->landingSlot > m_cluster->head())
        return std::nullopt;
    return record->landingSlot;
}

} // namespace switchyard::sim
