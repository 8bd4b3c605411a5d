#include "family.h"

namespace switchyard {

QString familyName(ChainFamily family)
{
    switch (family) {
    case ChainFamily::Solana:
        return QStringLiteral("solana");
    case ChainFamily::Evm:
        return QStringLiteral("evm");
    }
    Q_UNREACHABLE();
}

std::optional<ChainFamily> familyFromName(const QString& name)
{
    if (name == QLatin1String("solana"))
        return ChainFamily::Solana;
    if (name == QLatin1String("evm"))
        return ChainFamily::Evm;
    return std::nullopt;
}

} // namespace switchyard
