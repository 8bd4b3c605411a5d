#include "evmledger.h"

#include "chain/codec/hex.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"

#include <QCryptographicHash>
#include <algorithm>

namespace switchyard::sim {

namespace {

// geth answers every transaction-pool refusal with the default server error code.
constexpr int kGethServerError = -32000;

MethodError poolError(const QString& message)
{
    return {kGethServerError, message, QJsonValue::Undefined};
}

} // namespace

EvmLedger::EvmLedger(SimulatedCluster* cluster)
    : QObject(cluster)
    , m_cluster(cluster)
    , m_minedThrough(cluster->head())
{
    connect(cluster, &SimulatedCluster::headChanged, this, &EvmLedger::mineThrough);
}

void EvmLedger::setInclusionDelayBlocks(int blocks)
{
    m_inclusionDelayBlocks = qMax(1, blocks);
}

void EvmLedger::setScriptedOutcome(const QString& hash, ScriptedOutcome outcome)
{
    m_scripted.insert(hash.toLower(), outcome);
}

bool EvmLedger::setAccountNonce(const QString& address, quint64 nonce)
{
    const chain::DecodeResult<QByteArray> bytes = chain::hexDecode(address);
    if (!address.startsWith(QLatin1String("0x"), Qt::CaseInsensitive) || !bytes ||
        bytes->size() != 20)
        return false;
    m_baseNonce.insert(address.toLower(), nonce);
    return true;
}

MethodResult EvmLedger::send(SimulatedNode& node, const QByteArray& raw)
{
    const chain::DecodeResult<chain::evm::Transaction> decoded = chain::evm::decodeTransaction(raw);
    if (!decoded)
        return poolError(decoded.error().message);
    const chain::evm::Transaction& transaction = *decoded;
    const QString hash = transaction.id().toLower();
    node.countSend(hash);
    if (!transaction.chainId)
        return poolError(
            QStringLiteral("only replay-protected (EIP-155) transactions allowed over RPC"));
    if (*transaction.chainId != node.chainId())
        return poolError(QStringLiteral("invalid chain id for signer: have %1 want %2")
                             .arg(*transaction.chainId)
                             .arg(node.chainId()));
    const chain::DecodeResult<QByteArray> senderBytes = chain::evm::recoverSender(transaction);
    if (!senderBytes)
        return poolError(QStringLiteral("invalid sender"));
    const QString sender = chain::hexEncode(*senderBytes);

    const auto existing = m_records.find(hash);
    if (existing != m_records.end() && existing->state == EvmTransactionState::Pending)
        return poolError(QStringLiteral("already known"));
    const quint64 stateNonce = nonceAt(sender, node.head());
    if (transaction.nonce < stateNonce)
        return poolError(QStringLiteral("nonce too low: address %1, tx: %2 state: %3")
                             .arg(chain::evm::checksumAddress(*senderBytes))
                             .arg(transaction.nonce)
                             .arg(stateNonce));

    if (existing != m_records.end()) {
        // A stale node takes a transaction the chain has settled; nothing changes. A dropped
        // one comes back into the pool.
        if (existing->state == EvmTransactionState::Dropped) {
            existing->state = transaction.nonce < nextNonce(sender)
                                  ? EvmTransactionState::Superseded
                                  : EvmTransactionState::Pending;
            existing->dueBlock = m_cluster->head() + m_inclusionDelayBlocks;
            existing->sequence = ++m_sequence;
        }
        return QJsonValue(hash);
    }

    EvmTransactionRecord record;
    record.hash = hash;
    record.raw = raw;
    record.transaction = transaction;
    record.sender = sender;
    record.dueBlock = m_cluster->head() + m_inclusionDelayBlocks;
    record.sequence = ++m_sequence;
    if (m_scripted.value(hash) == ScriptedOutcome::NeverLands)
        record.state = EvmTransactionState::Dropped;
    else if (transaction.nonce < nextNonce(sender))
        record.state = EvmTransactionState::Superseded; // only a stale node would take it
    m_records.insert(hash, record);
    return QJsonValue(hash);
}

bool EvmLedger::dropPending(const QString& hash)
{
    const auto record = m_records.find(hash.toLower());
    if (record == m_records.end() || record->state != EvmTransactionState::Pending)
        return false;
    record->state = EvmTransactionState::Dropped;
    return true;
}

bool EvmLedger::mineNow(const QString& hash)
{
    const qint64 next = m_cluster->head() + 1;
    if (!hash.isEmpty()) {
        const auto record = m_records.find(hash.toLower());
        if (record == m_records.end() || record->state != EvmTransactionState::Pending ||
            record->transaction.nonce != nextNonce(record->sender))
            return false;
        record->dueBlock = qMin(record->dueBlock, next);
        record->preferred = true;
    } else {
        for (EvmTransactionRecord& record : m_records) {
            if (record.state == EvmTransactionState::Pending)
                record.dueBlock = qMin(record.dueBlock, next);
        }
    }
    m_cluster->advance(1);
    return true;
}

const EvmTransactionRecord* EvmLedger::find(const QString& hash) const
{
    const auto record = m_records.constFind(hash.toLower());
    return record == m_records.cend() ? nullptr : &*record;
}

quint64 EvmLedger::nonceAt(const QString& address, qint64 block) const
{
    const QString key = address.toLower();
    const QList<qint64> blocks = m_minedBlocks.value(key);
    const auto end = std::upper_bound(blocks.cbegin(), blocks.cend(), block);
    return m_baseNonce.value(key) + quint64(end - blocks.cbegin());
}

quint64 EvmLedger::pendingNonceAt(const QString& address, qint64 block) const
{
    const QString key = address.toLower();
    quint64 nonce = nonceAt(key, block);
    while (hasNonceInPool(key, nonce, block))
        ++nonce;
    return nonce;
}

bool EvmLedger::hasNonceInPool(const QString& sender, quint64 nonce, qint64 minedAfter) const
{
    for (const EvmTransactionRecord& record : m_records) {
        if (record.sender != sender || record.transaction.nonce != nonce)
            continue;
        if (record.state == EvmTransactionState::Pending ||
            (record.state == EvmTransactionState::Mined && *record.block > minedAfter))
            return true;
    }
    return false;
}

QString EvmLedger::blockHash(qint64 block) const
{
    const QByteArray seed = "switchyard-sim block:" + m_cluster->genesisHash().toLatin1() + ':' +
                            QByteArray::number(block);
    return chain::hexEncode(QCryptographicHash::hash(seed, QCryptographicHash::Keccak_256));
}

QStringList EvmLedger::transactionsInBlock(qint64 block) const
{
    QList<const EvmTransactionRecord*> mined;
    for (const EvmTransactionRecord& record : m_records)
        if (record.state == EvmTransactionState::Mined && record.block == block)
            mined.append(&record);
    std::sort(mined.begin(), mined.end(),
              [](const EvmTransactionRecord* a, const EvmTransactionRecord* b) {
                  return a->indexInBlock < b->indexInBlock;
              });
    QStringList hashes;
    for (const EvmTransactionRecord* record : std::as_const(mined))
        hashes.append(record->hash);
    return hashes;
}

quint64 EvmLedger::nextNonce(const QString& sender) const
{
    return m_baseNonce.value(sender) + quint64(m_minedBlocks.value(sender).size());
}

std::optional<qint64> EvmLedger::nextMiningBlock() const
{
    std::optional<qint64> earliest;
    for (const EvmTransactionRecord& record : m_records) {
        if (record.state != EvmTransactionState::Pending ||
            record.transaction.nonce != nextNonce(record.sender))
            continue;
        const qint64 block = qMax(record.dueBlock, m_minedThrough + 1);
        if (!earliest || block < *earliest)
            earliest = block;
    }
    return earliest;
}

void EvmLedger::mineThrough(qint64 head)
{
    while (const std::optional<qint64> block = nextMiningBlock()) {
        if (*block > head)
            break;
        mineBlock(*block);
        m_minedThrough = *block;
    }
    m_minedThrough = qMax(m_minedThrough, head);
}

void EvmLedger::mineBlock(qint64 block)
{
    int index = 0;
    for (;;) {
        // Per sender, the transaction that takes its next nonce in this block.
        QHash<QString, EvmTransactionRecord*> chosen;
        for (EvmTransactionRecord& record : m_records) {
            if (record.state != EvmTransactionState::Pending || record.dueBlock > block ||
                record.transaction.nonce != nextNonce(record.sender))
                continue;
            EvmTransactionRecord*& best = chosen[record.sender];
            if (!best || (record.preferred && !best->preferred) ||
                (record.preferred == best->preferred && record.sequence < best->sequence))
                best = &record;
        }
        if (chosen.isEmpty())
            return;
        QList<EvmTransactionRecord*> included = chosen.values();
        std::sort(included.begin(), included.end(),
                  [](const EvmTransactionRecord* a, const EvmTransactionRecord* b) {
                      return a->sequence < b->sequence;
                  });
        for (EvmTransactionRecord* record : std::as_const(included)) {
            record->state = EvmTransactionState::Mined;
            record->block = block;
            record->indexInBlock = index++;
            record->reverted = m_scripted.value(record->hash) == ScriptedOutcome::FailsOnExecution;
            m_minedBlocks[record->sender].append(block);
            for (EvmTransactionRecord& rival : m_records) {
                if (&rival != record && rival.sender == record->sender &&
                    rival.transaction.nonce == record->transaction.nonce &&
                    (rival.state == EvmTransactionState::Pending ||
                     rival.state == EvmTransactionState::Dropped))
                    rival.state = EvmTransactionState::Superseded;
            }
        }
    }
}

} // namespace switchyard::sim
