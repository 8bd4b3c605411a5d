#pragma once

#include <QByteArray>
#include <QObject>
#include <QSettings>

namespace switchyard {

// The one place that reads and writes QSettings (window layout and other per-user choices;
// the node configuration lives in its own JSON file). Emits changed() after every write.
class Settings : public QObject
{
    Q_OBJECT
public:
    explicit Settings(QObject* parent = nullptr);
    // For tests: settings kept in the given INI file instead of the user's.
    explicit Settings(const QString& iniFile, QObject* parent = nullptr);

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& geometry);

    QByteArray windowState() const;
    void setWindowState(const QByteArray& state);

    int currentView() const;
    void setCurrentView(int index);

    // The network selector's choice; empty: all networks.
    QString selectedNetwork() const;
    void setSelectedNetwork(const QString& network);

    // The failovers view's window (ms back from now); 0 when never chosen.
    qint64 failoverWindowMs() const;
    void setFailoverWindowMs(qint64 ms);

    // The lag charts' range (0: never chosen).
    qint64 lagRangeMs() const;
    void setLagRangeMs(qint64 ms);

    // Column widths and order of the node table.
    QByteArray poolTableHeader() const;
    void setPoolTableHeader(const QByteArray& state);

    // Closing the window leaves Switchyard watching from the tray (opt-in).
    bool keepRunningInTray() const;
    void setKeepRunningInTray(bool keep);

Q_SIGNALS:
    void changed(const QString& key);

private:
    QVariant value(const QString& key) const;
    void setValue(const QString& key, const QVariant& value);

    QSettings m_settings;
};

} // namespace switchyard
