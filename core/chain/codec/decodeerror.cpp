#include "decodeerror.h"

namespace switchyard::chain {

QString describeCharacter(QChar c)
{
    if (c.unicode() >= 0x21 && c.unicode() < 0x7f)
        return QStringLiteral("'%1'").arg(c);
    return QStringLiteral("U+%1").arg(QString::number(c.unicode(), 16).toUpper(), 4,
                                      QLatin1Char('0'));
}

} // namespace switchyard::chain
