#pragma once

#include <QObject>

class QSocketNotifier;

namespace switchyard::app {

// SIGTERM (a logout, `systemctl stop`), SIGINT (Ctrl+C) and SIGHUP (its terminal went away) as a
// signal on the event loop, so the window can quit the way it does from its menu: the normal
// shutdown then commits and acknowledges what the store's writer still holds, instead of the
// process dying with it. A signal handler may only do async-signal-safe work: it writes the
// signal's number to a socket pair, and a QSocketNotifier reads it on the event loop. One
// instance at a time; it restores the default handlers when it goes.
class TerminationSignals : public QObject
{
    Q_OBJECT
public:
    explicit TerminationSignals(QObject* parent = nullptr);
    ~TerminationSignals() override;

    // False when the socket pair or a handler could not be set up (then the signals keep their
    // default action).
    bool isActive() const { return m_notifier != nullptr; }

Q_SIGNALS:
    void received(int signalNumber);

private:
    void readSignal();

    QSocketNotifier* m_notifier = nullptr;
};

} // namespace switchyard::app
