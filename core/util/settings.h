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

Q_SIGNALS:
    void changed(const QString& key);

private:
    QVariant value(const QString& key) const;
    void setValue(const QString& key, const QVariant& value);

    QSettings m_settings;
};

} // namespace switchyard
