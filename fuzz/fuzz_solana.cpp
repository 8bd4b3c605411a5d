#include "chain/codec/signedtransaction.h"
#include "chain/solana/solanatransaction.h"

#include <cstdlib>

using namespace switchyard;
using namespace switchyard::chain;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const auto tx = solana::decodeTransaction(bytes);
    if (!tx.ok()) {
        if (tx.error().message.isEmpty() || tx.error().offset < 0)
            std::abort();
        return 0;
    }
    // What was accepted is consistent with the bytes it came from.
    if (tx->size != bytes.size() || tx->size > solana::kMaxTransactionSize ||
        tx->message != bytes.mid(tx->messageOffset) || tx->signatures.isEmpty() ||
        tx->signatures.size() != tx->numRequiredSignatures ||
        tx->accountKeys.size() < tx->signatures.size() || tx->recentBlockhash.size() != 32)
        std::abort();
    for (const auto& instruction : tx->instructions) {
        if (instruction.programIdIndex == 0 || instruction.programIdIndex >= tx->accountKeys.size())
            std::abort();
    }
    const QList<bool> valid = solana::verifySignatures(*tx);
    if (valid.size() != tx->signatures.size())
        std::abort();
    const auto decoded = decodeSignedTransaction(ChainFamily::Solana, bytes);
    if (!decoded.ok() || decoded->id != tx->id() || decoded->id.isEmpty())
        std::abort();
    return 0;
}
