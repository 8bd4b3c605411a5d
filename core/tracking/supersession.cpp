#include "supersession.h"

namespace switchyard::tracking {

SupersessionVerdict decideEvmSupersession(const EvmNonceEvidence& evidence)
{
    if (evidence.receipt == ReceiptLookup::Found)
        return SupersessionVerdict::Landed;
    if (!evidence.transactionNonce || !evidence.minedNonce)
        return SupersessionVerdict::Unknown;
    if (*evidence.minedNonce <= *evidence.transactionNonce)
        return SupersessionVerdict::NonceOpen;
    // The nonce is used; only a receipt lookup that answered "none" proves it was not ours.
    return evidence.receipt == ReceiptLookup::NotFound ? SupersessionVerdict::Superseded
                                                       : SupersessionVerdict::Unknown;
}

QString supersessionVerdictKey(SupersessionVerdict verdict)
{
    switch (verdict) {
    case SupersessionVerdict::Unknown:
        return QStringLiteral("unknown");
    case SupersessionVerdict::NonceOpen:
        return QStringLiteral("nonce-open");
    case SupersessionVerdict::Landed:
        return QStringLiteral("landed");
    case SupersessionVerdict::Superseded:
        return QStringLiteral("superseded");
    }
    Q_UNREACHABLE();
}

} // namespace switchyard::tracking
