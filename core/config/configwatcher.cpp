#include "configwatcher.h"

#include "config/configerror.h"
#include "config/configloader.h"

#include <QFileInfo>

namespace switchyard {

namespace {
// Saving can take several file events (truncate, write, rename); load once they are over.
constexpr int settleMs = 200;
} // namespace

ConfigWatcher::ConfigWatcher(QString path, QByteArray loadedContents, QObject* parent)
    : QObject(parent)
    , m_path(std::move(path))
    , m_contents(std::move(loadedContents))
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(settleMs);
    connect(&m_settle, &QTimer::timeout, this, &ConfigWatcher::reload);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &ConfigWatcher::scheduleReload);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this,
            &ConfigWatcher::scheduleReload);
    m_watcher.addPath(QFileInfo(m_path).absolutePath());
    if (QFileInfo::exists(m_path))
        m_watcher.addPath(m_path);
}

void ConfigWatcher::scheduleReload()
{
    m_settle.start();
}

void ConfigWatcher::reload()
{
    // A file replaced by a rename is a new file: watch it again.
    if (QFileInfo::exists(m_path) && !m_watcher.files().contains(m_path))
        m_watcher.addPath(m_path);

    const ConfigFileRead read = readConfigFile(m_path, NonRegularFiles::AreRefused);
    if (read.missing)
        return; // removed, or mid-rename: the next event brings it back
    if (!read.error.isEmpty()) {
        // The running configuration stays; a file that keeps changing is refused once.
        const QString why = formatConfigErrors({{m_path, 0, 0, QString(), read.error}});
        if (why != m_refusal)
            Q_EMIT rejected(why);
        m_refusal = why;
        return;
    }
    m_refusal.clear();
    const QByteArray& contents = read.text;
    if (contents == m_contents)
        return;
    m_contents = contents;
    const ConfigResult loaded = loadConfigText(contents, m_path);
    if (loaded.ok())
        Q_EMIT reloaded(loaded.config());
    else
        Q_EMIT rejected(loaded.errorText());
}

} // namespace switchyard
