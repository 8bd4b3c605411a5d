#pragma once

#include <QDateTime>
#include <QObject>

namespace switchyard {

// Time as the core sees it. Production code uses the system clock; tests hand in a ManualClock
// and move time forward explicitly, so nothing time-dependent needs a test to sleep.
class Clock : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // Milliseconds on a monotonic scale: only differences are meaningful.
    virtual qint64 monotonicMs() const = 0;
    virtual QDateTime utcNow() const = 0;

    // The process-wide system clock.
    static Clock* system();

Q_SIGNALS:
    // Emitted by clocks that jump (ManualClock); timers driven by the clock re-check on it.
    void advanced();
};

class SystemClock final : public Clock
{
    Q_OBJECT
public:
    using Clock::Clock;
    qint64 monotonicMs() const override;
    QDateTime utcNow() const override;
};

class ManualClock final : public Clock
{
    Q_OBJECT
public:
    explicit ManualClock(QObject* parent = nullptr);

    qint64 monotonicMs() const override { return m_monotonicMs; }
    QDateTime utcNow() const override { return m_epoch.addMSecs(m_monotonicMs); }

    void advance(qint64 ms);

private:
    QDateTime m_epoch;
    qint64 m_monotonicMs = 0;
};

} // namespace switchyard
