#include "transactiontext.h"

#include "chain/codec/base58.h"
#include "chain/codec/base64.h"
#include "chain/codec/hex.h"
#include "chain/solana/solanatransaction.h"
#include "chain/transactionid.h"

namespace switchyard::chain {

namespace {

// The id in its one stored form when `text` is an id of `family`; empty otherwise.
QString idOf(const QString& text, ChainFamily family)
{
    const std::optional<TransactionId> id = parseTransactionId(text);
    return id && id->family == family ? id->text : QString();
}

std::optional<TransactionText> readSolanaText(const QString& text, QString* error)
{
    TransactionText read{ChainFamily::Solana, idOf(text, ChainFamily::Solana), std::nullopt};
    if (!read.watchId.isEmpty())
        return read;
    const auto base64 = base64Decode(text);
    if (base64 && solana::decodeTransaction(*base64)) {
        read.wire = *base64;
        return read;
    }
    const auto base58 = base58Decode(text);
    if (base58 && solana::decodeTransaction(*base58)) {
        read.wire = *base58;
        return read;
    }
    // Report the reading that got furthest: bytes that decode but are no transaction, else
    // the base64 reading (the encoding sendTransaction takes).
    if (base64)
        *error = QStringLiteral("not a Solana transaction: ") +
                 solana::decodeTransaction(*base64).error().message;
    else if (base58)
        *error = QStringLiteral("not a Solana transaction: ") +
                 solana::decodeTransaction(*base58).error().message;
    else
        *error = QStringLiteral("neither base64 nor base58: ") + base64.error().message;
    return std::nullopt;
}

std::optional<TransactionText> readEvmText(const QString& text, QString* error)
{
    if (!text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive)) {
        *error = QStringLiteral("the network is EVM, whose transactions are 0x-prefixed hex "
                                "(base64 and base58 are how Solana bytes come)");
        return std::nullopt;
    }
    const auto bytes = hexDecode(text);
    if (!bytes) {
        *error = QStringLiteral("not hex: ") + bytes.error().message;
        return std::nullopt;
    }
    TransactionText read{ChainFamily::Evm, idOf(text, ChainFamily::Evm), std::nullopt};
    if (read.watchId.isEmpty())
        read.wire = *bytes;
    return read;
}

} // namespace

ChainFamily textFamily(const QString& text, std::optional<ChainFamily> family)
{
    if (family)
        return *family;
    return text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive) ? ChainFamily::Evm
                                                                     : ChainFamily::Solana;
}

std::optional<TransactionText>
readTransactionText(const QString& text, std::optional<ChainFamily> family, QString* error)
{
    if (textFamily(text, family) == ChainFamily::Evm)
        return readEvmText(text, error);
    if (text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive)) {
        *error = QStringLiteral("0x hex is an EVM transaction, but the network is Solana (give "
                                "base64 or base58 wire bytes)");
        return std::nullopt;
    }
    return readSolanaText(text, error);
}

} // namespace switchyard::chain
