#pragma once

#include <QFrame>
#include <QTimer>

class QLabel;

namespace switchyard {
class PoolManager;
}

namespace switchyard::ui {

// The toolbar's verdict over every network, worst first: "<network> down" in red with the
// critical icon while a role of a network has no node left, else "Fallback active: <networks>"
// with a warning icon, else a calm "All first-choice nodes serving"; the reasons are in the
// tooltip. Always about every network, whatever the network selector shows; the selected
// network only adds its own words to the tooltip.
class FallbackIndicator : public QFrame
{
    Q_OBJECT
public:
    explicit FallbackIndicator(PoolManager* manager, QWidget* parent = nullptr);

    void setNetwork(const QString& network); // the one selected; empty: every network
    bool isActive() const { return m_active; }
    QString text() const; // the verdict, on one line (the toolbar may show it on two)
    QString iconName() const { return m_iconName; } // "fallback-calm", ...

public Q_SLOTS:
    void refresh();

private:
    void adoptPools();
    void scheduleRefresh();

    PoolManager* m_manager;
    QString m_network;
    QLabel* m_icon;
    QLabel* m_text;
    QString m_headline;
    bool m_active = false;
    QString m_iconName;
    QTimer m_coalesce;
    QTimer m_expiry; // "a call failed over in the last minute" ends without any signal
};

} // namespace switchyard::ui
