#include "chain/codec/signedtransaction.h"
#include "chain/evm/evmtransaction.h"

#include <QCryptographicHash>
#include <cstdlib>

using namespace switchyard;
using namespace switchyard::chain;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const auto tx = evm::decodeTransaction(bytes);
    if (!tx.ok()) {
        if (tx.error().message.isEmpty() || tx.error().offset < 0 ||
            tx.error().offset > bytes.size())
            std::abort();
        return 0;
    }
    if ((tx->type != 0 && tx->type != 1 && tx->type != 2 && tx->type != 4) ||
        tx->hash != QCryptographicHash::hash(bytes, QCryptographicHash::Keccak_256) ||
        tx->r.size() != 32 || tx->s.size() != 32 || tx->signingHash.size() != 32 ||
        (tx->to && tx->to->size() != 20) || (tx->type != 0 && !tx->chainId) ||
        (tx->type == 4 && (!tx->to || tx->authorizationCount == 0)))
        std::abort();
    const auto sender = evm::recoverSender(*tx);
    if (sender.ok() && evm::checksumAddress(*sender).size() != 42)
        std::abort();
    if (evm::toDecimal(tx->value).isEmpty())
        std::abort();
    const auto verified = verifySignedTransaction(ChainFamily::Evm, bytes, tx->id());
    if (verified.ok() != sender.ok())
        std::abort();
    return 0;
}
