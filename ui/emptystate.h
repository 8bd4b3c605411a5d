#pragma once

#include <QIcon>
#include <QWidget>

class QHBoxLayout;
class QLabel;
class QPushButton;

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
    void setText(const QString& headline, const QString& explanation);

    // A way out of the empty state ("Open the editor", "Try the demo"), in a row under the text.
    QPushButton* addButton(const QString& text, const QIcon& icon = {});

private:
    QLabel* m_headline;
    QLabel* m_explanation;
    QHBoxLayout* m_buttons;
};

} // namespace switchyard::ui
