#pragma once

#include <QWidget>

class QLabel;

namespace switchyard::ui {

// What a view shows while it has nothing to show: a headline and a sentence saying why, in type
// large enough to read from across the desk.
class EmptyState : public QWidget
{
    Q_OBJECT
public:
    EmptyState(const QString& headline, const QString& explanation, QWidget* parent = nullptr);

    QString headline() const;
    QString explanation() const;

private:
    QLabel* m_headline;
    QLabel* m_explanation;
};

} // namespace switchyard::ui
