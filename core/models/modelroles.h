#pragma once

#include <Qt>

namespace switchyard {

// Roles every table model of the dashboard answers, so one proxy sorts and filters them all.
enum ModelRole
{
    // The raw value behind a cell (a number, or a plain string): what sorting compares, so that
    // formatting ("9 slots", "1 min ago") never decides the order.
    SortRole = Qt::UserRole,
    // The network a row belongs to, for the network selector.
    NetworkRole,
    // Models number their own roles from here.
    FirstModelSpecificRole,
};

} // namespace switchyard
