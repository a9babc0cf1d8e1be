import { ProjectList } from './projects/project-list.js';
import { ProjectView } from './projects/project-view.js';
import { RecentWork } from './projects/recent-work.js';
import './long-form/long-form.css';
import './projects/projects.css';

/**
 * The home screen: the key's projects and its recent work; `?project=` opens one project with its
 * script, voices and everything generated in it, as the service keeps them.
 */
export function ProjectsScreen({ params }: { params: URLSearchParams }) {
  const projectId = params.get('project');
  return (
    <div class="projects long-form">
      {projectId ? (
        <ProjectView key={projectId} projectId={projectId} />
      ) : (
        <>
          <ProjectList />
          <RecentWork />
        </>
      )}
    </div>
  );
}
