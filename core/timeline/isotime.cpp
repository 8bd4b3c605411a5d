#include "isotime.h"

#include <QDateTime>

namespace switchyard {

namespace {

constexpr qint64 msPerDay = 86'400'000;

qint64 floorDiv(qint64 a, qint64 b)
{
    const qint64 q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

struct CivilDate
{
    qint64 year;
    int month;
    int day;
};

// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's civil_from_days).
CivilDate civilFromDays(qint64 days)
{
    days += 719468;
    const qint64 era = floorDiv(days, 146097);
    const qint64 dayOfEra = days - era * 146097;
    const qint64 yearOfEra =
        (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
    const qint64 dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    const qint64 monthIndex = (5 * dayOfYear + 2) / 153;
    const int day = int(dayOfYear - (153 * monthIndex + 2) / 5 + 1);
    const int month = int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9);
    const qint64 year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
    return {year, month, day};
}

void appendDigits(char*& out, qint64 value, int width)
{
    for (int i = width - 1; i >= 0; --i) {
        out[i] = char('0' + value % 10);
        value /= 10;
    }
    out += width;
}

} // namespace

void appendIsoUtcMs(QByteArray& out, qint64 msSinceEpoch)
{
    const qint64 days = floorDiv(msSinceEpoch, msPerDay);
    qint64 msOfDay = msSinceEpoch - days * msPerDay;
    const CivilDate date = civilFromDays(days);
    if (date.year < 0 || date.year > 9999) {
        // Outside four digits: nothing the dashboard records, so the slow path is fine.
        out += isoUtcMs(msSinceEpoch).toLatin1();
        return;
    }
    char buffer[24];
    char* p = buffer;
    appendDigits(p, date.year, 4);
    *p++ = '-';
    appendDigits(p, date.month, 2);
    *p++ = '-';
    appendDigits(p, date.day, 2);
    *p++ = 'T';
    appendDigits(p, msOfDay / 3'600'000, 2);
    msOfDay %= 3'600'000;
    *p++ = ':';
    appendDigits(p, msOfDay / 60'000, 2);
    msOfDay %= 60'000;
    *p++ = ':';
    appendDigits(p, msOfDay / 1000, 2);
    *p++ = '.';
    appendDigits(p, msOfDay % 1000, 3);
    *p++ = 'Z';
    out.append(buffer, p - buffer);
}

QString isoUtcMs(qint64 msSinceEpoch)
{
    return QDateTime::fromMSecsSinceEpoch(msSinceEpoch, Qt::UTC).toString(Qt::ISODateWithMs);
}

} // namespace switchyard
