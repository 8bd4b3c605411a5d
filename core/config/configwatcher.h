#pragma once

#include "config/config.h"

#include <QByteArray>
#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>

namespace switchyard {

// Watches the configuration file and loads it again when its contents change. Editors often
// save by writing a new file and renaming it over the old one, which a watch on the file alone
// loses, so the folder is watched too. Only a regular file of at most maxConfigFileBytes is read
// again (readConfigFile): a pipe or a device put in its place is refused, not waited on.
class ConfigWatcher : public QObject
{
    Q_OBJECT
public:
    // `loadedContents`: the bytes of the configuration already in use, so an unchanged file
    // (a touch, a save without edits) does not rebuild the pool.
    ConfigWatcher(QString path, QByteArray loadedContents, QObject* parent = nullptr);

    const QString& path() const { return m_path; }

Q_SIGNALS:
    void reloaded(const switchyard::Config& config);
    void rejected(const QString& errors); // the running configuration stays

private:
    void scheduleReload();
    void reload();

    QString m_path;
    QByteArray m_contents;
    QString m_refusal; // why the file as it is now cannot be read; empty when it can
    QFileSystemWatcher m_watcher;
    QTimer m_settle;
};

} // namespace switchyard
