#pragma once

#include "tracking/trackedtransaction.h"

#include <QList>
#include <QString>

namespace switchyard::tracking {

// A detail a transaction was given again with another value than the one it has.
struct DetailConflict
{
    QString id;
    QString field; // as a JSON line names it: "network", "intentId", "lastValidBlockHeight", ...
    QString held;  // the value it has ("none" when absent)
    QString given; // the value given now
};

// What giving a transaction again makes of the record it has, `held` (the same id): the rule
// for an id given twice in one input, in two inputs, and for an id the store already tracks.
// It gains what it lacked (the bytes of a watch-only id, a lastValidBlockHeight, an intent id)
// and keeps everything it had. A detail both give with other values is a conflict, and then
// nothing is merged: the caller refuses the input, since whoever gave it must not believe the
// new value was kept.
struct DetailMerge
{
    TrackedTransaction merged; // `held`, plus what it gained
    bool gained = false;
    QList<DetailConflict> conflicts;
};

DetailMerge mergeDetails(const TrackedTransaction& held, const TrackedTransaction& given);

} // namespace switchyard::tracking
