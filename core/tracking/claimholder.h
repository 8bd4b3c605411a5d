#pragma once

#include <QString>
#include <optional>

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
// "process 1234" ("process 1234 on host-b" for a session's holder), for people.
QString describeHolder(const QString& holder);

// On a PostgreSQL store a send is claimed by a database session, which cannot be judged from
// /proc (its process may run on another machine): the claim lives as long as the session holds
// the transaction's session lock (store/sessionlock.h). The holder names the session's server
// process, and this process and host for people.
QString sessionAsHolder(qint64 sessionPid);
// The server process of the session that holds a claim, when `holder` names one.
std::optional<qint64> holderSession(const QString& holder);

} // namespace switchyard::tracking
