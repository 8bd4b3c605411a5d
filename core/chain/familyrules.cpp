#include "familyrules.h"

#include "chain/evm/evmfamily.h"
#include "chain/solana/solanafamily.h"
#include "config/config.h"

namespace switchyard::chain {

const FamilyRules& familyRules(ChainFamily family)
{
    switch (family) {
    case ChainFamily::Solana:
        return solana::rules();
    case ChainFamily::Evm:
        return evm::rules();
    }
    Q_UNREACHABLE();
}

HealthVerdict HealthVerdict::answered(qint64 height)
{
    return {Kind::Answered, QString(), height};
}

HealthVerdict HealthVerdict::refused(const RpcRequest& asked, const RpcReply& reply)
{
    return {Kind::Refused, QStringLiteral("%1: %2").arg(asked.method, reply.describe()),
            std::nullopt};
}

HealthVerdict HealthVerdict::malformed(const RpcRequest& asked, const QString& why)
{
    return {Kind::Malformed, QStringLiteral("%1: %2").arg(asked.method, why), std::nullopt};
}

std::optional<HealthVerdict> judgeIdentity(const FamilyRules& rules, const RpcReply& reply,
                                           const NetworkConfig& network)
{
    if (!reply.isResult())
        return HealthVerdict::refused(rules.identityRequest(), reply);
    QString why;
    const std::optional<QString> served = rules.readIdentity(reply.result(), &why);
    if (!served)
        return HealthVerdict::malformed(rules.identityRequest(), why);
    const QString expected = rules.identityOf(network);
    if (*served != expected)
        return HealthVerdict{HealthVerdict::Kind::WrongIdentity,
                             QStringLiteral("%1 %2, expected %3 (%4)")
                                 .arg(rules.identityUnit(), *served, expected, network.name),
                             std::nullopt};
    return std::nullopt;
}

} // namespace switchyard::chain
