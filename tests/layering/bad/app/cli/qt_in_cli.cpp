#include <QCoreApplication>
