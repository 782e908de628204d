import { PageUnavailable } from '../components/StatusPage';

export default PageUnavailable;
