#include "evmmethods.h"

#include "chain/codec/hex.h"
#include "chain/evm/rlp.h"
#include "sim/evmledger.h"
#include "sim/simulatedcluster.h"
#include "sim/simulatednode.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonObject>

namespace switchyard::sim {

namespace {

quint64 quantity(qint64 value)
{
    return static_cast<quint64>(qMax<qint64>(0, value));
}

MethodResult ethChainId(SimulatedNode& node, const QJsonValue& params)
{
    if (auto error = expectNoParams(params))
        return *error;
    return QJsonValue(hexQuantity(node.chainId()));
}

MethodResult ethBlockNumber(SimulatedNode& node, const QJsonValue& params)
{
    if (auto error = expectNoParams(params))
        return *error;
    return QJsonValue(hexQuantity(quantity(node.head())));
}

MethodResult ethSyncing(SimulatedNode& node, const QJsonValue& params)
{
    if (auto error = expectNoParams(params))
        return *error;
    if (node.slotsBehind() <= 0)
        return QJsonValue(false);
    return QJsonObject{
        {QStringLiteral("startingBlock"), hexQuantity(quantity(node.syncStartingBlock()))},
        {QStringLiteral("currentBlock"), hexQuantity(quantity(node.head()))},
        {QStringLiteral("highestBlock"), hexQuantity(quantity(node.cluster()->head()))}};
}

MethodResult netVersion(SimulatedNode& node, const QJsonValue& params)
{
    if (auto error = expectNoParams(params))
        return *error;
    return QJsonValue(QString::number(node.chainId()));
}

MethodResult web3ClientVersion(SimulatedNode&, const QJsonValue& params)
{
    if (auto error = expectNoParams(params))
        return *error;
    return QJsonValue(QStringLiteral("SwitchyardSim/v" SWITCHYARD_VERSION "/qt" QT_VERSION_STR));
}

// geth's wording for a parameter it cannot read.
MethodError invalidArgument(int index, const QString& detail)
{
    return {rpccode::InvalidParams,
            QStringLiteral("invalid argument %1: %2").arg(index).arg(detail),
            QJsonValue::Undefined};
}

MethodError missingArgument(int index)
{
    return {rpccode::InvalidParams,
            QStringLiteral("missing value for required argument %1").arg(index),
            QJsonValue::Undefined};
}

// 0x-prefixed hex of exactly `bytes` bytes (any case), or the error geth gives.
std::variant<QByteArray, MethodError> fixedHex(const QJsonValue& value, int index, int bytes,
                                               const char* what)
{
    if (value.isUndefined())
        return missingArgument(index);
    const QString text = value.toString();
    if (!value.isString() || !text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive))
        return invalidArgument(index, QStringLiteral("hex string without 0x prefix"));
    const chain::DecodeResult<QByteArray> decoded = chain::hexDecode(text);
    if (!decoded)
        return invalidArgument(index, decoded.error().message);
    if (decoded->size() != bytes)
        return invalidArgument(index, QStringLiteral("hex string has length %1, want %2 for %3")
                                          .arg(text.size() - 2)
                                          .arg(bytes * 2)
                                          .arg(QLatin1String(what)));
    return *decoded;
}

// Minimal big-endian bytes as a quantity ("0x0" for none).
QString bytesQuantity(const QByteArray& bigEndian)
{
    qsizetype start = 0;
    while (start < bigEndian.size() && bigEndian.at(start) == 0)
        ++start;
    if (start == bigEndian.size())
        return QStringLiteral("0x0");
    QString digits = chain::hexEncode(bigEndian.mid(start)).mid(2);
    while (digits.startsWith(QLatin1Char('0')))
        digits.remove(0, 1);
    return QStringLiteral("0x") + digits;
}

// Compares minimal big-endian unsigned integers.
bool lessThan(const QByteArray& a, const QByteArray& b)
{
    if (a.size() != b.size())
        return a.size() < b.size();
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                        [](char x, char y) { return quint8(x) < quint8(y); });
}

bool usesFeeCap(const chain::evm::Transaction& tx)
{
    return tx.type == 2 || tx.type == 4;
}

// The price per gas a mined transaction paid. The simulated chain has no base fee, so an
// EIP-1559 transaction pays its priority fee (never above its cap).
QByteArray effectiveGasPrice(const chain::evm::Transaction& tx)
{
    if (!usesFeeCap(tx))
        return tx.gasPrice;
    return lessThan(tx.maxFeePerGas, tx.maxPriorityFeePerGas) ? tx.maxFeePerGas
                                                              : tx.maxPriorityFeePerGas;
}

quint64 gasUsed(const chain::evm::Transaction& tx)
{
    return qMin<quint64>(tx.gasLimit, 21000 + 16 * quint64(tx.data.size()));
}

QJsonValue contractAddress(const EvmTransactionRecord& record)
{
    if (record.transaction.to)
        return QJsonValue::Null;
    const chain::DecodeResult<QByteArray> sender = chain::hexDecode(record.sender);
    QByteArray items;
    chain::evm::appendRlpHeader(items, sender->size(), false);
    items.append(*sender);
    chain::evm::appendRlpUint(items, record.transaction.nonce);
    QByteArray list;
    chain::evm::appendRlpHeader(list, items.size(), true);
    list.append(items);
    return chain::hexEncode(
        QCryptographicHash::hash(list, QCryptographicHash::Keccak_256).right(20));
}

std::variant<QString, MethodError> hashParam(const QJsonValue& params)
{
    auto parsed = positionalParams(params, 1);
    if (auto* error = std::get_if<MethodError>(&parsed))
        return *error;
    auto hash = fixedHex(std::get<QJsonArray>(parsed).at(0), 0, 32, "common.Hash");
    if (auto* error = std::get_if<MethodError>(&hash))
        return *error;
    return chain::hexEncode(std::get<QByteArray>(hash));
}

MethodResult ethSendRawTransaction(SimulatedNode& node, const QJsonValue& params)
{
    auto parsed = positionalParams(params, 1);
    if (auto* error = std::get_if<MethodError>(&parsed))
        return *error;
    const QJsonValue value = std::get<QJsonArray>(parsed).at(0);
    if (value.isUndefined())
        return missingArgument(0);
    const QString text = value.toString();
    if (!value.isString() || !text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive))
        return invalidArgument(0, QStringLiteral("hex string without 0x prefix"));
    const chain::DecodeResult<QByteArray> raw = chain::hexDecode(text);
    if (!raw)
        return invalidArgument(0, raw.error().message);
    return node.cluster()->evmLedger()->send(node, *raw);
}

MethodResult ethGetTransactionReceipt(SimulatedNode& node, const QJsonValue& params)
{
    auto hash = hashParam(params);
    if (auto* error = std::get_if<MethodError>(&hash))
        return *error;
    const EvmLedger& ledger = *node.cluster()->evmLedger();
    const EvmTransactionRecord* record = ledger.find(std::get<QString>(hash));
    if (!record || record->state != EvmTransactionState::Mined || *record->block > node.head())
        return QJsonValue(QJsonValue::Null);
    const chain::evm::Transaction& tx = record->transaction;
    const quint64 used = gasUsed(tx);
    return QJsonObject{
        {QStringLiteral("transactionHash"), record->hash},
        {QStringLiteral("transactionIndex"), hexQuantity(quint64(record->indexInBlock))},
        {QStringLiteral("blockHash"), node.blockHash(*record->block)},
        {QStringLiteral("blockNumber"), hexQuantity(quantity(*record->block))},
        {QStringLiteral("from"), record->sender},
        {QStringLiteral("to"), tx.to ? QJsonValue(chain::hexEncode(*tx.to)) : QJsonValue::Null},
        {QStringLiteral("cumulativeGasUsed"), hexQuantity(used)},
        {QStringLiteral("gasUsed"), hexQuantity(used)},
        {QStringLiteral("effectiveGasPrice"), bytesQuantity(effectiveGasPrice(tx))},
        {QStringLiteral("contractAddress"), contractAddress(*record)},
        {QStringLiteral("logs"), QJsonArray()},
        {QStringLiteral("logsBloom"),
         QString(QStringLiteral("0x") + QString(512, QLatin1Char('0')))},
        {QStringLiteral("status"),
         record->reverted ? QStringLiteral("0x0") : QStringLiteral("0x1")},
        {QStringLiteral("type"), hexQuantity(quint64(tx.type))}};
}

MethodResult ethGetTransactionByHash(SimulatedNode& node, const QJsonValue& params)
{
    auto hash = hashParam(params);
    if (auto* error = std::get_if<MethodError>(&hash))
        return *error;
    const EvmLedger& ledger = *node.cluster()->evmLedger();
    const EvmTransactionRecord* record = ledger.find(std::get<QString>(hash));
    if (!record)
        return QJsonValue(QJsonValue::Null);
    // A stale node has not seen the block yet: the transaction is still in its pool.
    const bool mined = record->state == EvmTransactionState::Mined && *record->block <= node.head();
    const bool pending = record->state == EvmTransactionState::Pending ||
                         (record->state == EvmTransactionState::Mined && !mined);
    if (!mined && !pending)
        return QJsonValue(QJsonValue::Null);
    const chain::evm::Transaction& tx = record->transaction;
    QJsonObject object{
        {QStringLiteral("hash"), record->hash},
        {QStringLiteral("blockHash"),
         mined ? QJsonValue(node.blockHash(*record->block)) : QJsonValue::Null},
        {QStringLiteral("blockNumber"),
         mined ? QJsonValue(hexQuantity(quantity(*record->block))) : QJsonValue::Null},
        {QStringLiteral("transactionIndex"),
         mined ? QJsonValue(hexQuantity(quint64(record->indexInBlock))) : QJsonValue::Null},
        {QStringLiteral("from"), record->sender},
        {QStringLiteral("to"), tx.to ? QJsonValue(chain::hexEncode(*tx.to)) : QJsonValue::Null},
        {QStringLiteral("nonce"), hexQuantity(tx.nonce)},
        {QStringLiteral("value"), bytesQuantity(tx.value)},
        {QStringLiteral("gas"), hexQuantity(tx.gasLimit)},
        {QStringLiteral("gasPrice"),
         bytesQuantity(mined || !usesFeeCap(tx) ? effectiveGasPrice(tx) : tx.maxFeePerGas)},
        {QStringLiteral("input"), chain::hexEncode(tx.data)},
        {QStringLiteral("type"), hexQuantity(quint64(tx.type))},
        {QStringLiteral("r"), bytesQuantity(tx.r)},
        {QStringLiteral("s"), bytesQuantity(tx.s)}};
    if (tx.chainId)
        object.insert(QStringLiteral("chainId"), hexQuantity(*tx.chainId));
    if (tx.type == 0) {
        const quint64 v = tx.chainId ? *tx.chainId * 2 + 35 + quint64(tx.recoveryId)
                                     : 27 + quint64(tx.recoveryId);
        object.insert(QStringLiteral("v"), hexQuantity(v));
    } else {
        object.insert(QStringLiteral("v"), hexQuantity(quint64(tx.recoveryId)));
        object.insert(QStringLiteral("yParity"), hexQuantity(quint64(tx.recoveryId)));
    }
    if (usesFeeCap(tx)) {
        object.insert(QStringLiteral("maxFeePerGas"), bytesQuantity(tx.maxFeePerGas));
        object.insert(QStringLiteral("maxPriorityFeePerGas"),
                      bytesQuantity(tx.maxPriorityFeePerGas));
    }
    return object;
}

MethodResult ethGetTransactionCount(SimulatedNode& node, const QJsonValue& params)
{
    auto parsed = positionalParams(params, 2);
    if (auto* error = std::get_if<MethodError>(&parsed))
        return *error;
    const QJsonArray array = std::get<QJsonArray>(parsed);
    auto address = fixedHex(array.at(0), 0, 20, "common.Address");
    if (auto* error = std::get_if<MethodError>(&address))
        return *error;
    const QString sender = chain::hexEncode(std::get<QByteArray>(address));
    const EvmLedger& ledger = *node.cluster()->evmLedger();
    const QJsonValue tag = array.at(1);
    if (tag.isUndefined())
        return missingArgument(1);
    const QString text = tag.toString();
    if (text == QLatin1String("latest"))
        return QJsonValue(hexQuantity(ledger.nonceAt(sender, node.head())));
    if (text == QLatin1String("pending"))
        return QJsonValue(hexQuantity(ledger.pendingNonceAt(sender, node.head())));
    if (text == QLatin1String("earliest"))
        return QJsonValue(hexQuantity(ledger.nonceAt(sender, 0)));
    bool ok = false;
    const qint64 block = text.startsWith(QLatin1String("0x")) ? text.mid(2).toLongLong(&ok, 16) : 0;
    if (!ok)
        return invalidArgument(1,
                               QStringLiteral("expected latest, pending, earliest or a 0x block "
                                              "number, got %1")
                                   .arg(tag.isString() ? text : QStringLiteral("(not a string)")));
    if (block > node.head())
        return MethodError{-32000, QStringLiteral("header not found"), QJsonValue::Undefined};
    return QJsonValue(hexQuantity(ledger.nonceAt(sender, block)));
}

// A block tag as geth reads it at a node whose head is `head`: latest, pending, safe and
// finalized are the head (the simulated chain finalizes at once), earliest is 0.
std::variant<qint64, MethodError> blockTag(const QJsonValue& tag, qint64 head, int index)
{
    if (tag.isUndefined())
        return missingArgument(index);
    const QString text = tag.toString();
    static const QStringList headTags = {QStringLiteral("latest"), QStringLiteral("pending"),
                                         QStringLiteral("safe"), QStringLiteral("finalized")};
    if (headTags.contains(text))
        return head;
    if (text == QLatin1String("earliest"))
        return qint64(0);
    bool ok = false;
    const qint64 block = text.startsWith(QLatin1String("0x")) ? text.mid(2).toLongLong(&ok, 16) : 0;
    if (!ok || block < 0)
        return invalidArgument(index,
                               QStringLiteral("expected a block tag or a 0x block number, "
                                              "got %1")
                                   .arg(tag.isString() ? text : QStringLiteral("(not a string)")));
    return block;
}

// The header fields of a block and its transactions' hashes (full objects are not simulated:
// asked for them, the node answers with hashes too). null past the node's head.
MethodResult ethGetBlockByNumber(SimulatedNode& node, const QJsonValue& params)
{
    auto parsed = positionalParams(params, 2);
    if (auto* error = std::get_if<MethodError>(&parsed))
        return *error;
    const QJsonArray array = std::get<QJsonArray>(parsed);
    auto block = blockTag(array.at(0), node.head(), 0);
    if (auto* error = std::get_if<MethodError>(&block))
        return *error;
    if (array.at(1).isUndefined())
        return missingArgument(1);
    if (!array.at(1).isBool())
        return invalidArgument(1, QStringLiteral("expected a boolean"));
    const qint64 number = std::get<qint64>(block);
    if (number > node.head())
        return QJsonValue(QJsonValue::Null);
    QJsonArray transactions;
    for (const QString& hash : node.cluster()->evmLedger()->transactionsInBlock(number))
        transactions.append(hash);
    return QJsonObject{{QStringLiteral("number"), hexQuantity(quantity(number))},
                       {QStringLiteral("hash"), node.blockHash(number)},
                       {QStringLiteral("parentHash"),
                        number == 0 ? QString(QStringLiteral("0x") + QString(64, QLatin1Char('0')))
                                    : node.blockHash(number - 1)},
                       {QStringLiteral("transactions"), transactions}};
}

} // namespace

QString hexQuantity(quint64 value)
{
    return QStringLiteral("0x") + QString::number(value, 16);
}

MethodTable evmMethods()
{
    return {
        {QStringLiteral("eth_chainId"), ethChainId},
        {QStringLiteral("eth_blockNumber"), ethBlockNumber},
        {QStringLiteral("eth_syncing"), ethSyncing},
        {QStringLiteral("net_version"), netVersion},
        {QStringLiteral("web3_clientVersion"), web3ClientVersion},
        {QStringLiteral("eth_sendRawTransaction"), ethSendRawTransaction},
        {QStringLiteral("eth_getTransactionReceipt"), ethGetTransactionReceipt},
        {QStringLiteral("eth_getTransactionByHash"), ethGetTransactionByHash},
        {QStringLiteral("eth_getTransactionCount"), ethGetTransactionCount},
        {QStringLiteral("eth_getBlockByNumber"), ethGetBlockByNumber},
    };
}

} // namespace switchyard::sim
