#pragma once

#include <QString>

namespace switchyard {

// Who runs this process, as the system knows them: the login name of the effective user
// ("uid 1000" when the user database has none). What the timeline names as who acted.
QString osUserName();

} // namespace switchyard
