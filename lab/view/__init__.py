"""What every page is built from: the view of a rerun, parameter state, sidebar, links, navigation, guard, progress, drawing."""
