#pragma once

#include <QString>

namespace switchyard::tracking {

// Who holds a send that is claimed in the store and not finished yet: a process, named so that
// any other process on the machine can tell whether it still runs (its pid, the kernel's start
// time for it, which tells a reused pid apart, and the boot it ran in).
// resources/docs/design.md, "Across processes".
QString thisProcessAsHolder();

enum class HolderLiveness
{
    Running, // that process still runs: its send may be under way
    Ended,   // it is gone (killed, crashed, another boot), or an older build left no holder
    Unknown, // it cannot be told (no /proc): taken as running, so its claim is never closed
};

HolderLiveness holderLiveness(const QString& holder);
// "process 1234", for people.
QString describeHolder(const QString& holder);

} // namespace switchyard::tracking
