#include "blockidentity.h"

#include "chain/codec/base58.h"
#include "chain/codec/hex.h"
#include "chain/codec/quantity.h"

#include <QJsonArray>
#include <QJsonObject>

namespace switchyard::chain {

namespace {

constexpr qsizetype kHashBytes = 32;
constexpr qint64 kEvmAgreementDepth = 3;
constexpr qint64 kSolanaAgreementDepth = 32;
// Solana's errors for a slot without a block: skipped (-32007), skipped or missing in long-term
// storage (-32009), not available on this node (-32004), cleaned up (-32001).
constexpr qint64 kSlotSkipped = -32007;
constexpr qint64 kLongTermStorageSlotSkipped = -32009;
constexpr qint64 kBlockNotAvailable = -32004;
constexpr qint64 kBlockCleanedUp = -32001;

bool isEvmHash(const QJsonValue& value)
{
    if (!value.isString() || !value.toString().startsWith(QLatin1String("0x")))
        return false;
    const auto bytes = hexDecode(value.toString());
    return bytes.ok() && bytes.value().size() == kHashBytes;
}

bool isSolanaHash(const QJsonValue& value)
{
    if (!value.isString())
        return false;
    const auto bytes = base58Decode(value.toString());
    return bytes.ok() && bytes.value().size() == kHashBytes;
}

std::optional<BlockIdentity> readEvmBlock(const QJsonValue& result, qint64 height, QString* why)
{
    if (result.isNull())
        return BlockIdentity{}; // past this node's head
    if (!result.isObject()) {
        *why = QStringLiteral("block %1 is not an object").arg(quotedJson(result));
        return std::nullopt;
    }
    const QJsonObject block = result.toObject();
    QString countWhy;
    const std::optional<qint64> number =
        parseHexCount(block.value(QLatin1String("number")), &countWhy);
    if (!number) {
        *why = QStringLiteral("block number %1").arg(countWhy);
        return std::nullopt;
    }
    if (*number != height) {
        *why = QStringLiteral("answered block %1 for the asked %2").arg(*number).arg(height);
        return std::nullopt;
    }
    for (const QLatin1String field : {QLatin1String("hash"), QLatin1String("parentHash")}) {
        if (!isEvmHash(block.value(field))) {
            *why = QStringLiteral("block %1 has %2 %3, not a block hash")
                       .arg(height)
                       .arg(field, quotedJson(block.value(field)));
            return std::nullopt;
        }
    }
    return BlockIdentity{BlockIdentity::Kind::Block,
                         block.value(QLatin1String("hash")).toString().toLower(),
                         block.value(QLatin1String("parentHash")).toString().toLower()};
}

std::optional<BlockIdentity> readSolanaBlock(const QJsonValue& result, qint64 slot, QString* why)
{
    if (!result.isObject()) {
        *why = QStringLiteral("block %1 is not an object").arg(quotedJson(result));
        return std::nullopt;
    }
    const QJsonObject block = result.toObject();
    for (const QLatin1String field :
         {QLatin1String("blockhash"), QLatin1String("previousBlockhash")}) {
        if (!isSolanaHash(block.value(field))) {
            *why = QStringLiteral("block of slot %1 has %2 %3, not base58 of 32 bytes")
                       .arg(slot)
                       .arg(field, quotedJson(block.value(field)));
            return std::nullopt;
        }
    }
    // A block names its parent's slot; one at or past the slot asked is about another block.
    QString countWhy;
    const std::optional<qint64> parent =
        parseJsonCount(block.value(QLatin1String("parentSlot")), &countWhy);
    if (!parent) {
        *why = QStringLiteral("block of slot %1 has parentSlot %2").arg(slot).arg(countWhy);
        return std::nullopt;
    }
    if (*parent >= slot && slot > 0) {
        *why = QStringLiteral("block of slot %1 names parent slot %2: it is another block")
                   .arg(slot)
                   .arg(*parent);
        return std::nullopt;
    }
    return BlockIdentity{BlockIdentity::Kind::Block,
                         block.value(QLatin1String("blockhash")).toString(),
                         block.value(QLatin1String("previousBlockhash")).toString()};
}

} // namespace

qint64 agreementDepth(ChainFamily family)
{
    return family == ChainFamily::Solana ? kSolanaAgreementDepth : kEvmAgreementDepth;
}

QString BlockIdentity::comparable() const
{
    return kind == Kind::Skipped ? QStringLiteral("skipped") : hash;
}

RpcRequest agreementRequest(ChainFamily family, qint64 height)
{
    if (family == ChainFamily::Solana)
        return {
            QStringLiteral("getBlock"),
            QJsonArray{height,
                       QJsonObject{{QStringLiteral("commitment"), QStringLiteral("confirmed")},
                                   {QStringLiteral("transactionDetails"), QStringLiteral("none")},
                                   {QStringLiteral("rewards"), false},
                                   {QStringLiteral("maxSupportedTransactionVersion"), 0}}}};
    return {QStringLiteral("eth_getBlockByNumber"),
            QJsonArray{QString(QStringLiteral("0x") + QString::number(height, 16)), false}};
}

std::optional<BlockIdentity> readAgreementAnswer(ChainFamily family, const RpcReply& reply,
                                                 qint64 height, QString* why, bool* refused)
{
    *refused = false;
    if (const auto* error = std::get_if<RpcError>(&reply.outcome)) {
        if (family == ChainFamily::Solana &&
            (error->code == kSlotSkipped || error->code == kLongTermStorageSlotSkipped))
            return BlockIdentity{BlockIdentity::Kind::Skipped, {}, {}};
        if (family == ChainFamily::Solana &&
            (error->code == kBlockNotAvailable || error->code == kBlockCleanedUp))
            return BlockIdentity{};
        *refused = true;
        *why = reply.describe();
        return std::nullopt;
    }
    if (!reply.isResult()) {
        *refused = true;
        *why = reply.describe();
        return std::nullopt;
    }
    return family == ChainFamily::Solana ? readSolanaBlock(reply.result(), height, why)
                                         : readEvmBlock(reply.result(), height, why);
}

} // namespace switchyard::chain
