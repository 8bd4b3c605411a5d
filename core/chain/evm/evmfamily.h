#pragma once

#include "chain/familyrules.h"

namespace switchyard::chain::evm {

// EVM's answers to what differs between families (chain/familyrules.h).
const FamilyRules& rules();

} // namespace switchyard::chain::evm
