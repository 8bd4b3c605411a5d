#include "osuser.h"

#include <pwd.h>
#include <unistd.h>

namespace switchyard {

QString osUserName()
{
    // Not $USER: the environment is the caller's to set; the user database is the system's.
    const uid_t uid = ::geteuid();
    if (const passwd* entry = ::getpwuid(uid); entry && entry->pw_name && *entry->pw_name)
        return QString::fromLocal8Bit(entry->pw_name);
    return QStringLiteral("uid %1").arg(uid);
}

} // namespace switchyard
