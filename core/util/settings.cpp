#include "settings.h"

namespace switchyard {

namespace {
const QString geometryKey = QStringLiteral("window/geometry");
const QString stateKey = QStringLiteral("window/state");
const QString viewKey = QStringLiteral("window/currentView");
const QString networkKey = QStringLiteral("views/network");
const QString failoverWindowKey = QStringLiteral("views/failoverWindowMs");
const QString lagRangeKey = QStringLiteral("views/lagRangeMs");
const QString poolHeaderKey = QStringLiteral("views/poolTableHeader");
const QString keepRunningKey = QStringLiteral("attention/keepRunningInTray");
} // namespace

Settings::Settings(QObject* parent)
    : QObject(parent)
    , m_settings(QSettings::IniFormat, QSettings::UserScope, QStringLiteral("switchyard"),
                 QStringLiteral("switchyard"))
{}

Settings::Settings(const QString& iniFile, QObject* parent)
    : QObject(parent)
    , m_settings(iniFile, QSettings::IniFormat)
{}

QByteArray Settings::windowGeometry() const
{
    return value(geometryKey).toByteArray();
}

void Settings::setWindowGeometry(const QByteArray& geometry)
{
    setValue(geometryKey, geometry);
}

QByteArray Settings::windowState() const
{
    return value(stateKey).toByteArray();
}

void Settings::setWindowState(const QByteArray& state)
{
    setValue(stateKey, state);
}

int Settings::currentView() const
{
    return value(viewKey).toInt();
}

void Settings::setCurrentView(int index)
{
    setValue(viewKey, index);
}

QString Settings::selectedNetwork() const
{
    return value(networkKey).toString();
}

void Settings::setSelectedNetwork(const QString& network)
{
    setValue(networkKey, network);
}

qint64 Settings::failoverWindowMs() const
{
    return value(failoverWindowKey).toLongLong();
}

void Settings::setFailoverWindowMs(qint64 ms)
{
    setValue(failoverWindowKey, ms);
}

qint64 Settings::lagRangeMs() const
{
    return value(lagRangeKey).toLongLong();
}

void Settings::setLagRangeMs(qint64 ms)
{
    setValue(lagRangeKey, ms);
}

QByteArray Settings::poolTableHeader() const
{
    return value(poolHeaderKey).toByteArray();
}

void Settings::setPoolTableHeader(const QByteArray& state)
{
    setValue(poolHeaderKey, state);
}

QVariant Settings::value(const QString& key) const
{
    return m_settings.value(key);
}

void Settings::setValue(const QString& key, const QVariant& newValue)
{
    if (m_settings.value(key) == newValue)
        return;
    m_settings.setValue(key, newValue);
    Q_EMIT changed(key);
}

bool Settings::keepRunningInTray() const
{
    return value(keepRunningKey).toBool();
}

void Settings::setKeepRunningInTray(bool keep)
{
    setValue(keepRunningKey, keep);
}

} // namespace switchyard
