#pragma once

#include "chain/familyrules.h"

namespace switchyard::chain::solana {

// Solana's answers to what differs between families (chain/familyrules.h).
const FamilyRules& rules();

} // namespace switchyard::chain::solana
