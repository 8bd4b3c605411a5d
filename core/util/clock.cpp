#include "clock.h"

#include <QElapsedTimer>

namespace switchyard {

Clock* Clock::system()
{
    static SystemClock clock;
    return &clock;
}

qint64 SystemClock::monotonicMs() const
{
    static const QElapsedTimer start = [] {
        QElapsedTimer timer;
        timer.start();
        return timer;
    }();
    return start.elapsed();
}

QDateTime SystemClock::utcNow() const
{
    return QDateTime::currentDateTimeUtc();
}

ManualClock::ManualClock(QObject* parent)
    : Clock(parent)
    , m_epoch(QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC))
{}

void ManualClock::advance(qint64 ms)
{
    m_monotonicMs += ms;
    Q_EMIT advanced();
}

} // namespace switchyard
