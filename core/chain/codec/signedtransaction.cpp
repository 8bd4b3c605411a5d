#include "signedtransaction.h"

#include "chain/codec/base58.h"

namespace switchyard::chain {

DecodeResult<DecodedTransaction> decodeSignedTransaction(ChainFamily family, const QByteArray& raw)
{
    DecodedTransaction out;
    out.family = family;
    switch (family) {
    case ChainFamily::Solana: {
        auto tx = solana::decodeTransaction(raw);
        if (!tx)
            return tx.error();
        out.id = tx->id();
        out.signer = tx->feePayer();
        out.details = std::move(tx).value();
        return out;
    }
    case ChainFamily::Evm: {
        auto tx = evm::decodeTransaction(raw);
        if (!tx)
            return tx.error();
        out.id = tx->id();
        out.details = std::move(tx).value();
        return out;
    }
    }
    Q_UNREACHABLE();
}

DecodeResult<DecodedTransaction> verifySignedTransaction(ChainFamily family, const QByteArray& raw,
                                                         const QString& expectedId,
                                                         const QString& expectedSigner)
{
    auto decoded = decodeSignedTransaction(family, raw);
    if (!decoded)
        return decoded;
    return verifyDecodedTransaction(std::move(decoded).value(), expectedId, expectedSigner);
}

DecodeResult<DecodedTransaction> verifyDecodedTransaction(DecodedTransaction decoded,
                                                          const QString& expectedId,
                                                          const QString& expectedSigner)
{
    const ChainFamily family = decoded.family;
    // Base58 is case-sensitive; hex ids are not.
    const Qt::CaseSensitivity idCase =
        family == ChainFamily::Solana ? Qt::CaseSensitive : Qt::CaseInsensitive;
    if (!expectedId.isEmpty() && decoded.id.compare(expectedId, idCase) != 0) {
        return DecodeError{QStringLiteral("the bytes are transaction %1, not the expected %2")
                               .arg(decoded.id, expectedId),
                           0};
    }

    if (family == ChainFamily::Solana) {
        const auto& tx = std::get<solana::Transaction>(decoded.details);
        const QList<bool> valid = solana::verifySignatures(tx);
        for (qsizetype i = 0; i < valid.size(); ++i) {
            if (!valid[i]) {
                return DecodeError{
                    QStringLiteral("signature %1 (by %2) does not verify over the message")
                        .arg(i + 1)
                        .arg(base58Encode(tx.accountKeys.value(i))),
                    1 + i * solana::kSignatureSize};
            }
        }
    } else {
        const auto& tx = std::get<evm::Transaction>(decoded.details);
        const auto sender = evm::recoverSender(tx);
        if (!sender)
            return sender.error();
        decoded.signer = evm::checksumAddress(*sender);
    }
    if (!expectedSigner.isEmpty() &&
        decoded.signer.compare(expectedSigner, family == ChainFamily::Solana
                                                   ? Qt::CaseSensitive
                                                   : Qt::CaseInsensitive) != 0) {
        return DecodeError{QStringLiteral("the bytes are signed by %1, not the expected %2")
                               .arg(decoded.signer, expectedSigner),
                           0};
    }
    return decoded;
}

} // namespace switchyard::chain
