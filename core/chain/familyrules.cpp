#include "familyrules.h"

#include "chain/evm/evmfamily.h"
#include "chain/solana/solanafamily.h"

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

} // namespace switchyard::chain
