#pragma once

#include <QStyledItemDelegate>

namespace switchyard::ui {

// Shows the theme icon a model names in `iconNameRole` beside the cell's text: core models
// name icons (they link no GUI), the view draws them, at the size the tables use.
class ThemeIconDelegate : public QStyledItemDelegate
{
public:
    ThemeIconDelegate(int iconNameRole, QObject* parent);

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;

private:
    int m_iconNameRole;
};

} // namespace switchyard::ui
