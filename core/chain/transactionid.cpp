#include "transactionid.h"

#include "chain/codec/base58.h"
#include "chain/codec/hex.h"

namespace switchyard {

namespace {

constexpr qsizetype kEvmHashBytes = 32;
constexpr qsizetype kSolanaSignatureBytes = 64;
// 64 bytes are at most 88 base58 characters; longer text need not be decoded to be refused.
constexpr qsizetype kMaxSolanaSignatureChars = 88;

} // namespace

std::optional<TransactionId> parseTransactionId(QStringView text)
{
    const QStringView trimmed = text.trimmed();
    if (trimmed.startsWith(QLatin1String("0x"), Qt::CaseInsensitive)) {
        const auto bytes = chain::hexDecode(trimmed);
        if (!bytes || bytes->size() != kEvmHashBytes)
            return std::nullopt;
        return TransactionId{ChainFamily::Evm, chain::hexEncode(*bytes)};
    }
    if (trimmed.isEmpty() || trimmed.size() > kMaxSolanaSignatureChars)
        return std::nullopt;
    const auto bytes = chain::base58Decode(trimmed);
    if (!bytes || bytes->size() != kSolanaSignatureBytes)
        return std::nullopt;
    return TransactionId{ChainFamily::Solana, trimmed.toString()};
}

} // namespace switchyard
