#pragma once

#include "config/config.h"

#include <QMainWindow>

class QComboBox;
class QTabWidget;

namespace switchyard {
class Settings;
}

namespace switchyard::ui {

// Where the configuration came from, for the title and the status bar.
struct ConfigSource
{
    QString path;      // the file, or empty when there is none yet
    bool demo = false; // the built-in simulated cluster
};

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    MainWindow(Config config, ConfigSource source, Settings* settings, QWidget* parent = nullptr);

    QTabWidget* views() const { return m_views; }
    QComboBox* networkSelector() const { return m_networkSelector; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildToolbar();
    void buildViews();
    void restoreLayout();

    Config m_config;
    ConfigSource m_source;
    Settings* m_settings;
    QComboBox* m_networkSelector = nullptr;
    QTabWidget* m_views = nullptr;
};

} // namespace switchyard::ui
