#pragma once

namespace switchyard::sim {

// What the simulated network does with an accepted transaction, scripted per transaction id
// by tests and the demo. Without a script a valid transaction lands and succeeds.
enum class ScriptedOutcome
{
    Lands,            // lands (is mined) and succeeds
    FailsOnExecution, // lands with an execution error (Solana InstructionError, EVM status 0x0)
    NeverLands,       // accepted by the node, then lost: it never lands
};

} // namespace switchyard::sim
