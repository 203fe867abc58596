#include "self.h"
int x;
