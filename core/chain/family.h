#pragma once

#include <QString>
#include <optional>

namespace switchyard {

enum class ChainFamily
{
    Solana,
    Evm
};

QString familyName(ChainFamily family);                         // "solana" / "evm"
std::optional<ChainFamily> familyFromName(const QString& name); // inverse; nullopt if unknown

} // namespace switchyard
