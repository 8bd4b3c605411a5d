#pragma once

#include <QString>
#include <optional>

// Supersession (resources/docs/design.md, "Writes", rule 7): when an EVM transaction is proven
// Superseded, another transaction of its sender having used its nonce.
namespace switchyard::tracking {

enum class ReceiptLookup
{
    Unknown, // not asked or not answered
    NotFound,
    Found,
};

struct EvmNonceEvidence
{
    std::optional<quint64> transactionNonce;
    // The sender's mined nonce ("latest" eth_getTransactionCount) and the receipt of our hash,
    // both from one node, the count asked first.
    std::optional<quint64> minedNonce;
    ReceiptLookup receipt = ReceiptLookup::Unknown;
};

enum class SupersessionVerdict
{
    Unknown,    // not enough evidence: ask again later
    NonceOpen,  // the nonce is not used yet: it may still be mined
    Landed,     // our hash has a receipt: follow it
    Superseded, // the nonce is used and our hash has no receipt: another transaction won
};

SupersessionVerdict decideEvmSupersession(const EvmNonceEvidence& evidence);
QString supersessionVerdictKey(SupersessionVerdict verdict);

} // namespace switchyard::tracking
